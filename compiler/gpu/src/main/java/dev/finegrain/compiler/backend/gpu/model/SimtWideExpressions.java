package dev.finegrain.compiler.backend.gpu.model;

import dev.finegrain.compiler.ir.IrExpr;
import dev.finegrain.dsl.BinaryOperator;
import dev.finegrain.dsl.Type;

/**
 * The part of {@link SimtExpressions} for long and double values, in register pairs: the 64-bit integer instructions
 * ({@code IADD.64}, {@code IMUL.64}, {@code IDIV.64} ...), the fp64 ones ({@code DADD}, {@code DMUL}, {@code DDIV},
 * {@code DMNMX}, {@code DSETP}; a subtraction is {@code DADD} with a negated operand, which the model computes as
 * Java's {@code a - b}), the conversions, and comparisons of long and double operands. Doubles are never contracted
 * into DFMA: Java rounds every operation.
 */
final class SimtWideExpressions {

    private final SimtAssembler asm;
    private final SimtExpressions expressions;
    private final String one;

    SimtWideExpressions(SimtAssembler asm, SimtExpressions expressions, String one) {
        this.asm = asm;
        this.expressions = expressions;
        this.one = one;
    }

    /** A long or double expression; returns its register (a pair's low register). */
    String lower(IrExpr expr) {
        return switch (expr) {
            case IrExpr.Const c -> c.type() == Type.DOUBLE ? asm.constant64(Double.doubleToRawLongBits(c.real()))
                    : asm.constant64(c.integral());
            case IrExpr.ParamVar p -> expressions.operands().param(p.param());
            case IrExpr.Load load when expressions.tables().isSequence(load) -> expressions.tables().sequenceLoad(load);
            case IrExpr.Load load -> expressions.operands().load(load);
            case IrExpr.Lookup l -> expressions.tables().lookup(l);
            case IrExpr.Accumulator a -> expressions.accumulator(a.slot());
            case IrExpr.Cast c -> cast(c);
            case IrExpr.Unary u -> unary(u);
            case IrExpr.Binary b -> binary(b);
            case IrExpr.Select s -> expressions.select(s);
            case IrExpr.Iterate it -> expressions.iterate(it);
            default -> throw new IllegalStateException("a " + expr.type() + " " + expr.getClass().getSimpleName());
        };
    }

    /** Any cast: a conversion where the representation changes, else the operand's own register. */
    String cast(IrExpr.Cast cast) {
        Type from = cast.operand().type();
        Type to = cast.type();
        String value = expressions.lower(cast.operand());
        if (from == to || !SimtAssembler.isWide(from) && !SimtAssembler.isWide(to) && from != Type.DOUBLE) {
            return value;
        }
        if (from == Type.LONG && to != Type.DOUBLE) {
            return value;   // the low word of the pair is the int
        }
        String result = asm.register(to);
        if (from != Type.DOUBLE && to == Type.LONG) {
            asm.emit("MOV " + result + ", " + value);
            asm.emit("SHR " + SimtAssembler.high(result) + ", " + value + ", 0x1f");
        } else if (to == Type.DOUBLE) {
            asm.emit("I2F.F64." + (from == Type.LONG ? "S64 " : "S32 ") + result + ", " + value);
        } else {
            asm.emit("F2I." + (to == Type.LONG ? "S64" : "S32") + ".F64 " + result + ", " + value);
        }
        return result;
    }

    private String unary(IrExpr.Unary unary) {
        String operand = expressions.lower(unary.operand());
        String result = asm.pair();
        boolean real = unary.type() == Type.DOUBLE;
        switch (unary.operator()) {
            case NEG -> asm.emit(real ? "DADD " + result + ", -RZ, -" + operand : "IADD.64 " + result + ", RZ, -" + operand);
            case NOT -> asm.emit("LOP.XOR.64 " + result + ", " + operand + ", -0x1");
            case ABS -> {
                if (real) {
                    asm.emit("MOV " + result + ", " + operand);
                    asm.emit("LOP.AND " + SimtAssembler.high(result) + ", " + SimtAssembler.high(operand)
                            + ", 0x7fffffff   // clear the sign bit, as Math.abs does");
                } else {
                    asm.emit("IADD.64 " + result + ", RZ, -" + operand);
                    asm.emit("ISETP.LT.64.AND P0, PT, " + operand + ", RZ, PT");
                    asm.emit("SEL.64 " + result + ", " + result + ", " + operand + ", P0");
                }
            }
        }
        return result;
    }

    private String binary(IrExpr.Binary binary) {
        String left = expressions.lower(binary.left());
        String right = expressions.lower(binary.right());
        String result = asm.pair();
        if (binary.type() == Type.DOUBLE) {
            switch (binary.operator()) {
                case ADD -> asm.emit("DADD " + result + ", " + left + ", " + right);
                case SUB -> asm.emit("DADD " + result + ", " + left + ", -" + right);
                case MUL -> asm.emit("DMUL " + result + ", " + left + ", " + right);
                case DIV -> asm.emit("DDIV " + result + ", " + left + ", " + right);
                case MIN -> asm.emit("DMNMX " + result + ", " + left + ", " + right + ", PT");
                case MAX -> asm.emit("DMNMX " + result + ", " + left + ", " + right + ", !PT");
                default -> throw new IllegalStateException("double " + binary.operator());
            }
            return result;
        }
        switch (binary.operator()) {
            case ADD -> asm.emit("IADD.64 " + result + ", " + left + ", " + right);
            case SUB -> asm.emit("IADD.64 " + result + ", " + left + ", -" + right);
            case MUL -> asm.emit("IMUL.64 " + result + ", " + left + ", " + right);
            case DIV, REM -> {
                expressions.checkDivisor("ISETP.EQ.64.AND P0, PT, " + right + ", RZ, PT", binary.right());
                asm.emit((binary.operator() == BinaryOperator.DIV ? "IDIV.64 " : "IREM.64 ") + result + ", " + left
                        + ", " + right);
            }
            case MIN, MAX -> {
                asm.emit("ISETP." + (binary.operator() == BinaryOperator.MIN ? "LE" : "GE") + ".64.AND P0, PT, " + left
                        + ", " + right + ", PT");
                asm.emit("SEL.64 " + result + ", " + left + ", " + right + ", P0");
            }
            case AND -> asm.emit("LOP.AND.64 " + result + ", " + left + ", " + right);
            case OR -> asm.emit("LOP.OR.64 " + result + ", " + left + ", " + right);
            case XOR -> asm.emit("LOP.XOR.64 " + result + ", " + left + ", " + right);
            case SHL, SHR, USHR -> {
                String count = asm.register();
                asm.emit("LOP.AND " + count + ", " + right + ", 0x3f   // Java takes a long's shift count mod 64");
                String shift = switch (binary.operator()) {
                    case SHL -> "SHL.64 ";
                    case SHR -> "SHR.64 ";
                    default -> "SHR.U64 ";
                };
                asm.emit(shift + result + ", " + left + ", " + count);
            }
            default -> throw new IllegalStateException("long " + binary.operator());
        }
        return result;
    }

    /** A comparison of long or double operands, as a bool (0 or 1) in one register. */
    String compare(IrExpr.Binary binary) {
        String left = expressions.lower(binary.left());
        String right = expressions.lower(binary.right());
        String result = asm.register();
        String name = binary.operator().name();
        if (binary.left().type() == Type.DOUBLE) {
            asm.emit("DSETP." + (name.equals("NE") ? "NEU" : name) + ".AND P0, PT, " + left + ", " + right + ", PT");
        } else {
            asm.emit("ISETP." + name + ".64.AND P0, PT, " + left + ", " + right + ", PT");
        }
        asm.emit("SEL " + result + ", " + one + ", RZ, P0");
        return result;
    }

    /** A select of long or double values: both computed, the condition picks with SEL.64. */
    String select(IrExpr.Select select) {
        String condition = expressions.lower(select.condition());
        String whenTrue = expressions.lower(select.whenTrue());
        String whenFalse = expressions.lower(select.whenFalse());
        String result = asm.pair();
        asm.emit("ISETP.NE.AND P0, PT, " + condition + ", RZ, PT");
        asm.emit("SEL.64 " + result + ", " + whenTrue + ", " + whenFalse + ", P0");
        return result;
    }
}
