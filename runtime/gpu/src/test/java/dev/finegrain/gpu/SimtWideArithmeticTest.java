package dev.finegrain.gpu;

import dev.finegrain.gpu.runtime.SimtProfile;
import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;
import java.util.function.LongBinaryOperator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The 64-bit, floating-point, conversion and division instructions give Java's results bit for bit: each test runs
 * one instruction on 32 lanes of operands (edge cases first, then random bits), loaded from global memory as pairs
 * with LDG.64, stored with STG.64, and compares every lane with the Java expression.
 */
class SimtWideArithmeticTest {

    private static final double[] DOUBLE_EDGES = {0.0, -0.0, 1.0, -1.5, Double.NaN, Double.POSITIVE_INFINITY,
            Double.NEGATIVE_INFINITY, Double.MIN_VALUE, Double.MAX_VALUE, 1e-310, 3.0e9, -3.0e18, 1e300, 0.1};
    private static final long[] LONG_EDGES = {0, 1, -1, Long.MIN_VALUE, Long.MAX_VALUE, 1L << 32, -(1L << 32),
            Integer.MIN_VALUE, Integer.MAX_VALUE, 7, -7, 3};

    /** Operands of lane l: a at 8*l, b at 0x100 + 8*l; the result goes to 0x200 + 8*l. */
    private static long[] run(String instruction, long[] a, long[] b) {
        GlobalMemory memory = new GlobalMemory(0x400);
        for (int lane = 0; lane < 32; lane++) {
            memory.write(8 * lane, new int[] {(int) a[lane], (int) (a[lane] >>> 32)});
            memory.write(0x100 + 8 * lane, new int[] {(int) b[lane], (int) (b[lane] >>> 32)});
        }
        SimResult result = SimtSimulator.run(SimRequest.builder("wide.sass", """
                S2R R0, SR_TID.X;
                SHL R1, R0, 0x3;
                LDG.64 R2, [R1];
                LDG.64 R4, [R1+0x100];
                %s;
                STG.64 [R1+0x200], R6;
                """.formatted(instruction)).profile("fermi-gtx570").threads(32).globalMemory(memory).build());
        assertEquals(SimStatus.COMPLETED, result.status(), instruction);
        long[] out = new long[32];
        for (int lane = 0; lane < 32; lane++) {
            int[] words = memory.read(0x200 + 8 * lane, 2);
            out[lane] = Integer.toUnsignedLong(words[0]) | (long) words[1] << 32;
        }
        return out;
    }

    private static long[] doubles(long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        long[] bits = new long[32];
        for (int i = 0; i < 32; i++) {
            double value = i < DOUBLE_EDGES.length ? DOUBLE_EDGES[i] : (random.nextDouble() - 0.5) * Math.pow(10,
                    random.nextInt(-20, 20));
            bits[i] = Double.doubleToRawLongBits(value);
        }
        return bits;
    }

    private static long[] longs(long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        long[] values = new long[32];
        for (int i = 0; i < 32; i++) {
            values[i] = i < LONG_EDGES.length ? LONG_EDGES[i] : random.nextInt(3) == 0 ? random.nextInt(-100, 100)
                    : random.nextLong();
        }
        return values;
    }

    private static void check(String instruction, long[] a, long[] b, LongBinaryOperator java) {
        check(instruction, a, b, java, false);
    }

    private static void check(String instruction, long[] a, long[] b, LongBinaryOperator java, boolean doubles) {
        long[] out = run(instruction, a, b);
        for (int lane = 0; lane < 32; lane++) {
            long expected = java.applyAsLong(a[lane], b[lane]);
            long actual = out[lane];
            if (doubles) {
                expected = Double.doubleToLongBits(d(expected));
                actual = Double.doubleToLongBits(d(actual));
            }
            assertEquals(expected, actual, instruction + " lane " + lane + " of "
                    + a[lane] + ", " + b[lane]);
        }
    }

    /** Doubles compare as Double.equals does: every NaN is one value, as Java leaves a NaN's payload open. */
    private static void checkDouble(String instruction, long[] a, long[] b, LongBinaryOperator java) {
        check(instruction, a, b, java, true);
    }

    private static double d(long bits) {
        return Double.longBitsToDouble(bits);
    }

    private static long bits(double value) {
        return Double.doubleToRawLongBits(value);
    }

    @Test
    void fp64ArithmeticIsJavasDoubleArithmeticBitForBit() {
        long[] a = doubles(1);
        long[] b = doubles(2);
        checkDouble("DADD R6, R2, R4", a, b, (x, y) -> bits(d(x) + d(y)));
        checkDouble("DADD R6, R2, -R4", a, b, (x, y) -> bits(d(x) - d(y)));
        checkDouble("DMUL R6, R2, R4", a, b, (x, y) -> bits(d(x) * d(y)));
        checkDouble("DDIV R6, R2, R4", a, b, (x, y) -> bits(d(x) / d(y)));
        checkDouble("DMNMX R6, R2, R4, PT", a, b, (x, y) -> bits(Math.min(d(x), d(y))));
        checkDouble("DMNMX R6, R2, R4, !PT", a, b, (x, y) -> bits(Math.max(d(x), d(y))));
        checkDouble("DADD R6, -RZ, -R2", a, b, (x, y) -> bits(-d(x)));
    }

    @Test
    void fp64ComparisonsAreOrderedExceptNeu() {
        long[] a = doubles(3);
        long[] b = a.clone();
        b[5] = bits(1.0);
        b[6] = bits(Double.NaN);
        check("DSETP.LT.AND P0, PT, R2, R4, PT; SEL.64 R6, R2, RZ, P0", a, doubles(4),
                (x, y) -> d(x) < d(y) ? x : 0);
        check("DSETP.NE.AND P0, PT, R2, R4, PT; MOV32I R8, 0x1; SEL R6, R8, RZ, P0; MOV R7, RZ", a, b,
                (x, y) -> d(x) < d(y) || d(x) > d(y) ? 1 : 0);
        check("DSETP.NEU.AND P0, PT, R2, R4, PT; MOV32I R8, 0x1; SEL R6, R8, RZ, P0; MOV R7, RZ", a, b,
                (x, y) -> d(x) != d(y) ? 1 : 0);
        check("DSETP.EQ.AND P0, PT, R2, R4, PT; MOV32I R8, 0x1; SEL R6, R8, RZ, P0; MOV R7, RZ", a, b,
                (x, y) -> d(x) == d(y) ? 1 : 0);
    }

    @Test
    void longArithmeticWrapsAsJavaDoes() {
        long[] a = longs(5);
        long[] b = longs(6);
        check("IADD.64 R6, R2, R4", a, b, Long::sum);
        check("IADD.64 R6, R2, -R4", a, b, (x, y) -> x - y);
        check("IMUL.64 R6, R2, R4", a, b, (x, y) -> x * y);
        check("IDIV.64 R6, R2, R4", a, b, (x, y) -> y == 0 ? 0 : x / y);
        check("IREM.64 R6, R2, R4", a, b, (x, y) -> y == 0 ? 0 : x % y);
        check("LOP.XOR.64 R6, R2, R4", a, b, (x, y) -> x ^ y);
        check("LOP.AND R8, R4, 0x3f; SHL.64 R6, R2, R8", a, b, (x, y) -> x << y);
        check("LOP.AND R8, R4, 0x3f; SHR.64 R6, R2, R8", a, b, (x, y) -> x >> y);
        check("LOP.AND R8, R4, 0x3f; SHR.U64 R6, R2, R8", a, b, (x, y) -> x >>> y);
        check("ISETP.LT.64.AND P0, PT, R2, R4, PT; SEL.64 R6, R2, R4, P0", a, b, Math::min);
        check("MOV32I R6, -0x5; SHR R7, R6, 0x1f", a, b, (x, y) -> -5);
    }

    @Test
    void intDivisionAndRemainderFollowJava() {
        long[] a = longs(7);
        long[] b = longs(8);
        check("IDIV R6, R2, R4; SHR R7, R6, 0x1f", a, b, (x, y) -> (int) y == 0 ? 0 : (int) x / (int) y);
        check("IREM R6, R2, R4; SHR R7, R6, 0x1f", a, b, (x, y) -> (int) y == 0 ? 0 : (int) x % (int) y);
    }

    @Test
    void conversionsTruncateSaturateAndRoundAsJavaCasts() {
        long[] a = doubles(9);
        long[] l = longs(10);
        check("F2I.S32.F64 R6, R2; SHR R7, R6, 0x1f", a, a, (x, y) -> (int) d(x));
        check("F2I.S64.F64 R6, R2", a, a, (x, y) -> (long) d(x));
        checkDouble("I2F.F64.S64 R6, R2", l, l, (x, y) -> bits((double) x));
        checkDouble("I2F.F64.S32 R6, R2", l, l, (x, y) -> bits((double) (int) x));
        checkDouble("F2F.F32.F64 R8, R2; F2F.F64.F32 R6, R8", a, a, (x, y) -> bits((float) d(x)));
    }

    @Test
    void aPairOperandNamesAnEvenRegister() {
        SimUserException error = assertThrows(SimUserException.class, () -> SimtSimulator.run(
                SimRequest.builder("odd.sass", "DADD R3, R4, R6;").build()));
        assertTrue(error.getMessage().contains("expected an even register below R254 for a 64-bit operand"),
                error.getMessage());
    }

    @Test
    void fp64CostsFollowEachProfilesThroughput() {
        SimtProfile fermi = SimtProfile.load("fermi-gtx570");
        SimtProfile hopper = SimtProfile.load("hopper-h200");
        SimtProfile tesla = SimtProfile.load("tesla-gtx295");
        assertTrue(fermi.fp64Latency() > fermi.fp32Latency(), "GeForce Fermi runs fp64 at 1/8 of fp32");
        assertEquals(hopper.fp32Latency(), hopper.fp64Latency(), "Hopper issues a warp's fp64 in one pass");
        assertTrue(tesla.fp64Latency() - tesla.aluLatency() > fermi.fp64Latency() - fermi.aluLatency(),
                "GT200 has one fp64 unit per SM");
        assertTrue(fermi.sequences().divide() > 10 * fermi.aluLatency());
    }

    /** The scoreboard holds both halves of a 64-bit load: reading only the high word waits as long as the low one. */
    @Test
    void aReadOfTheHighWordWaitsForA64BitLoad() {
        long low = kernelCyclesReading("R2");
        long high = kernelCyclesReading("R3");
        long none = kernelCyclesReading("R0");
        assertEquals(low, high, "a read of R3 after LDG.64 R2 must wait for the load as a read of R2 does");
        assertTrue(high > none, "reading a loaded register costs the load's latency: " + high + " vs " + none);
    }

    private static long kernelCyclesReading(String register) {
        SimResult result = SimtSimulator.run(SimRequest.builder("pair.sass", """
                S2R R0, SR_TID.X;
                SHL R1, R0, 0x3;
                LDG.64 R2, [R1];
                MOV R6, %s;
                STG [R1+0x200], R6;
                """.formatted(register)).profile("fermi-gtx570").threads(32).globalMemory(new GlobalMemory(0x400)).build());
        assertEquals(SimStatus.COMPLETED, result.status());
        return result.kernelCycles();
    }

}
