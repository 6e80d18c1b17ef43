package dev.finegrain.compiler.check;

import dev.finegrain.dsl.BinaryOperator;
import dev.finegrain.dsl.CallSite;
import dev.finegrain.dsl.internal.DependenceMath;
import dev.finegrain.dsl.Dimension;
import dev.finegrain.dsl.Expr;
import dev.finegrain.dsl.Invocation;
import dev.finegrain.dsl.Kernel;
import dev.finegrain.dsl.Storage;
import dev.finegrain.dsl.Type;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.function.Supplier;

import static dev.finegrain.dsl.Finegrain.BOOL;
import static dev.finegrain.dsl.Finegrain.DOUBLE;
import static dev.finegrain.dsl.Finegrain.INT;
import static dev.finegrain.dsl.Finegrain.LONG;
import static dev.finegrain.dsl.Finegrain.abs;
import static dev.finegrain.dsl.Finegrain.boundary;
import static dev.finegrain.dsl.Finegrain.boundaryFrom;
import static dev.finegrain.dsl.Finegrain.constant;
import static dev.finegrain.dsl.Finegrain.dim;
import static dev.finegrain.dsl.Finegrain.index;
import static dev.finegrain.dsl.Finegrain.iterate;
import static dev.finegrain.dsl.Finegrain.kernel;
import static dev.finegrain.dsl.Finegrain.max;
import static dev.finegrain.dsl.Finegrain.min;
import static dev.finegrain.dsl.Finegrain.param;
import static dev.finegrain.dsl.Finegrain.read;
import static dev.finegrain.dsl.Finegrain.select;
import static dev.finegrain.dsl.Finegrain.size;

/**
 * Random kernels that the DSL must accept, for the property tests (and, with {@link #generateForLanes}, only what
 * strips of lanes compute). One actor per state field; a state field is read
 * at an offset whose dependence vector (minus the offset) is lexicographically positive, or zero when the writer
 * comes earlier in a random firing order that differs from the declaration order (so order-actors-at-point has work
 * to do). Inputs are read within their halo. Integer division is guarded so its divisor is never 0. With
 * {@link #generateBackward} every dependence has non-negative components, so tiles and the GPU mapping follow it.
 *
 * <p>Every double node that is not a leaf is clamped to [-1e9, 1e9] and double leaves are small, so no value is
 * ever infinite or NaN: NaN payloads may legally differ between two runs of the same arithmetic (interpreted and
 * JIT-compiled {@code Math.min}, for one), which would make a bit-for-bit comparison flaky for the wrong reason.
 */
final class RandomKernels {

    /** A generated kernel, the sizes and inputs of one run, and the dependence vectors it was built with. */
    record RandomCase(Kernel kernel, Invocation invocation, List<int[]> dependences) {

        int[] sizes() {
            return invocation.sizes();
        }

        /** Rectangular tiles in block-diagonal order respect a dependence exactly when no component is negative. */
        boolean tilingLegal() {
            return dependences.stream().allMatch(d -> Arrays.stream(d).allMatch(c -> c >= 0));
        }

        @Override
        public String toString() {
            return "sizes " + Arrays.toString(sizes()) + "\n" + kernel;
        }
    }

    private static final String[] INDICES = {"i", "j", "k"};
    private static final String[] SIZES = {"ni", "nj", "nk"};
    private static final List<Type> NUMERIC = List.of(INT, LONG, DOUBLE);
    private static final double LIMIT = 1e9;
    private static final int MAX_DEPTH = 3;
    private static final int MAX_STATE_REACH = 2;
    private static final CallSite GENERATED = new CallSite("RandomKernels.java", 0);

    /** An input; an int one may be declared {@link Storage#BYTE}, and then its values are drawn in -128 to 127. */
    private record Input(String name, Type type, int halo, Storage storage) {}

    private enum BoundaryKind { NONE, EXPRESSION, FROM_INPUT }

    private record State(String name, Type type, BoundaryKind boundary, Input boundaryInput) {

        /** How far a read may reach past the domain. */
        int reach() {
            return switch (boundary) {
                case NONE -> 0;
                case EXPRESSION -> MAX_STATE_REACH;
                case FROM_INPUT -> boundaryInput.halo();
            };
        }
    }

    /** Where an expression is generated: an actor's body (reads allowed) or a boundary (actor -1), and the folds around it. */
    private record Scope(int actor, List<Expr> accumulators, List<Type> accumulatorTypes) {

        Scope with(Expr accumulator, Type type) {
            List<Expr> values = new ArrayList<>(accumulators);
            values.add(accumulator);
            List<Type> types = new ArrayList<>(accumulatorTypes);
            types.add(type);
            return new Scope(actor, values, types);
        }
    }

    private final Random random;
    private final int rank;
    /** Kernels that strips of lanes accept: 2D, one numeric type, no casts, shifts, division or folds, reads one row up at most. */
    private final boolean lanes;
    private final List<Type> numeric;
    private final List<Type> params = new ArrayList<>();
    private final List<Input> inputs = new ArrayList<>();
    private final List<State> states = new ArrayList<>();
    /** Position of each actor in a random firing order; a zero-distance read must point to an earlier actor. */
    private final int[] firingPosition;
    private final List<int[]> dependences = new ArrayList<>();

    /** Kernels whose every dependence points backwards in every dimension (no negative component): tiles follow them. */
    private final boolean backward;

    private RandomKernels(Random random, int rank, int actors, boolean lanes, boolean backward) {
        this.random = random;
        this.rank = rank;
        this.firingPosition = new int[actors];
        this.lanes = lanes;
        this.backward = backward;
        this.numeric = lanes ? List.of(NUMERIC.get(random.nextInt(NUMERIC.size()))) : NUMERIC;
    }

    /** A valid kernel of the given rank, with {@code actors} actors (and as many state fields) and {@code inputs} inputs. */
    static RandomCase generate(int rank, int actors, int inputs, long seed) {
        return generate(rank, actors, inputs, seed, false);
    }

    /** A valid 2D kernel of one numeric type with only what strips of lanes compute, on sizes large enough for strips. */
    static RandomCase generateForLanes(int actors, int inputs, long seed) {
        return generate(2, actors, inputs, seed, true);
    }

    /**
     * A valid kernel of the given rank whose dependences have no negative component, so that every tiled schedule
     * (and the GPU mapping) takes it.
     */
    static RandomCase generateBackward(int rank, int actors, int inputs, long seed) {
        RandomKernels generator = new RandomKernels(new Random(seed), rank, actors, false, true);
        Kernel kernel = generator.kernelWith(actors, inputs);
        return new RandomCase(kernel, generator.invocation(kernel), List.copyOf(generator.dependences));
    }

    private static RandomCase generate(int rank, int actors, int inputs, long seed, boolean lanes) {
        RandomKernels generator = new RandomKernels(new Random(seed), rank, actors, lanes, false);
        Kernel kernel = generator.kernelWith(actors, inputs);
        return new RandomCase(kernel, generator.invocation(kernel), List.copyOf(generator.dependences));
    }

    private Kernel kernelWith(int actorCount, int inputCount) {
        List<Integer> order = new ArrayList<>();
        for (int a = 0; a < actorCount; a++) {
            order.add(a);
        }
        Collections.shuffle(order, random);
        for (int position = 0; position < actorCount; position++) {
            firingPosition[order.get(position)] = position;
        }
        Dimension[] domain = new Dimension[rank];
        for (int d = 0; d < rank; d++) {
            domain[d] = dim(INDICES[d], SIZES[d]);
        }
        Kernel.Builder builder = kernel("random-kernel").domain(domain);
        int paramCount = random.nextInt(4);
        for (int p = 0; p < paramCount; p++) {
            params.add(pick(numeric));
            builder.param("p" + p, params.get(p));
        }
        for (int f = 0; f < inputCount; f++) {
            Type inputType = pick(numeric);
            Input input = new Input("in" + f, inputType, random.nextInt(3),
                    inputType == INT && random.nextInt(3) == 0 ? Storage.BYTE : Storage.NATURAL);
            inputs.add(input);
            builder.input(input.name(), input.type(), input.halo(), input.storage());
        }
        for (int s = 0; s < actorCount; s++) {
            Type type = pick(numeric);
            List<Input> sameType = inputs.stream().filter(in -> in.type() == type).toList();
            int roll = random.nextInt(10);
            State state = roll < 2 ? new State("s" + s, type, BoundaryKind.NONE, null)
                    : roll < 4 && !sameType.isEmpty() ? new State("s" + s, type, BoundaryKind.FROM_INPUT, pick(sameType))
                    : new State("s" + s, type, BoundaryKind.EXPRESSION, null);
            states.add(state);
            switch (state.boundary()) {
                case NONE -> builder.state(state.name(), type);
                case FROM_INPUT -> builder.state(state.name(), type, boundaryFrom(state.boundaryInput().name()));
                // No folds in boundaries: a fold in a boundary is a known bug (see KnownBugsTest).
                case EXPRESSION -> builder.state(state.name(), type, boundary(expression(type, 2, new Scope(-1, List.of(), List.of()), false)));
            }
        }
        for (int a = 0; a < actorCount; a++) {
            State written = states.get(a);
            Scope scope = new Scope(a, List.of(), List.of());
            builder.actor("a" + a, written.name(), context -> expression(written.type(), MAX_DEPTH, scope, true));
        }
        if (random.nextInt(3) == 0) {
            int producer = random.nextInt(actorCount);
            int consumer = random.nextInt(actorCount);
            int[] distance = dependenceVector(MAX_STATE_REACH, firingPosition[producer] < firingPosition[consumer]);
            if (distance != null) {
                dependences.add(distance);
                builder.channel("a" + producer, "a" + consumer, distance);
            }
        }
        return builder.build();
    }

    private Invocation invocation(Kernel kernel) {
        int[] sizes = new int[rank];
        for (int d = 0; d < rank; d++) {
            sizes[d] = lanes ? 1 + random.nextInt(d == 0 ? 40 : 70) : 1 + random.nextInt(9);
        }
        Invocation.Builder invocation = kernel.invocation().sizes(sizes);
        for (int p = 0; p < params.size(); p++) {
            invocation.param("p" + p, switch (params.get(p)) {
                case INT -> (Object) (int) integral();
                case LONG -> (Object) integral();
                default -> (Object) smallDouble();
            });
        }
        for (Input input : inputs) {
            int length = Invocation.paddedLength(sizes, input.halo());
            Object array = switch (input.type()) {
                case INT -> {
                    int[] values = new int[length];
                    Arrays.setAll(values, v -> input.storage() == Storage.BYTE ? (byte) integral() : (int) integral());
                    yield values;
                }
                case LONG -> {
                    long[] values = new long[length];
                    Arrays.setAll(values, v -> integral());
                    yield values;
                }
                default -> {
                    double[] values = new double[length];
                    Arrays.setAll(values, v -> smallDouble());
                    yield values;
                }
            };
            invocation.input(input.name(), array);
        }
        return invocation.build();
    }

    // ---- expressions ---------------------------------------------------------------------------------------

    private Expr expression(Type type, int depth, Scope scope, boolean folds) {
        if (type == BOOL) {
            return condition(depth, scope, folds);
        }
        if (depth == 0 || random.nextInt(4) == 0) {
            return leaf(type, scope);
        }
        return type == DOUBLE ? clamp(realComposite(depth, scope, folds)) : integralComposite(type, depth, scope, folds);
    }

    private Expr integralComposite(Type type, int depth, Scope scope, boolean folds) {
        Supplier<Expr> operand = () -> expression(type, depth - 1, scope, folds);
        if (lanes) {
            return switch (random.nextInt(4)) {
                case 0 -> arithmetic(operand);
                case 1 -> switch (random.nextInt(3)) {
                    case 0 -> operand.get().negate();
                    case 1 -> abs(operand.get());
                    default -> operand.get().not();
                };
                case 2 -> select(condition(depth - 1, scope, false), operand.get(), operand.get());
                default -> switch (random.nextInt(3)) {
                    case 0 -> operand.get().and(operand.get());
                    case 1 -> operand.get().or(operand.get());
                    default -> operand.get().xor(operand.get());
                };
            };
        }
        return switch (random.nextInt(folds ? 9 : 8)) {
            case 0 -> arithmetic(operand);
            case 1 -> switch (random.nextInt(3)) {
                case 0 -> operand.get().negate();
                case 1 -> abs(operand.get());
                default -> operand.get().not();
            };
            case 2 -> select(condition(depth - 1, scope, folds), operand.get(), operand.get());
            case 3 -> expression(other(type), depth - 1, scope, folds).castTo(type);
            case 4 -> switch (random.nextInt(3)) {
                case 0 -> operand.get().and(operand.get());
                case 1 -> operand.get().or(operand.get());
                default -> operand.get().xor(operand.get());
            };
            case 5 -> shift(operand.get(), depth, scope, folds);
            case 6 -> guardedDivision(type, operand, expression(type, depth - 1, scope, false));
            case 7 -> arithmetic(operand);
            default -> fold(type, depth, scope);
        };
    }

    private Expr realComposite(int depth, Scope scope, boolean folds) {
        Supplier<Expr> operand = () -> expression(DOUBLE, depth - 1, scope, folds);
        if (lanes) {
            return switch (random.nextInt(3)) {
                case 0 -> arithmetic(operand);
                case 1 -> random.nextBoolean() ? operand.get().negate() : abs(operand.get());
                default -> select(condition(depth - 1, scope, false), operand.get(), operand.get());
            };
        }
        return switch (random.nextInt(folds ? 5 : 4)) {
            case 0, 1 -> arithmetic(operand);
            case 2 -> random.nextBoolean() ? operand.get().negate() : abs(operand.get());
            case 3 -> random.nextBoolean() ? select(condition(depth - 1, scope, folds), operand.get(), operand.get())
                    : expression(random.nextBoolean() ? INT : LONG, depth - 1, scope, folds).castTo(DOUBLE);
            default -> fold(DOUBLE, depth, scope);
        };
    }

    private Expr arithmetic(Supplier<Expr> operand) {
        return switch (random.nextInt(5)) {
            case 0 -> operand.get().plus(operand.get());
            case 1 -> operand.get().minus(operand.get());
            case 2 -> operand.get().times(operand.get());
            case 3 -> min(operand.get(), operand.get());
            default -> max(operand.get(), operand.get());
        };
    }

    /** Shifts by a constant (counts past the width test the masking) or by an int or long expression. */
    private Expr shift(Expr value, int depth, Scope scope, boolean folds) {
        if (random.nextBoolean()) {
            int count = random.nextInt(70);
            return switch (random.nextInt(3)) {
                case 0 -> value.shiftLeft(count);
                case 1 -> value.shiftRight(count);
                default -> value.shiftRightUnsigned(count);
            };
        }
        BinaryOperator operator = pick(List.of(BinaryOperator.SHL, BinaryOperator.SHR, BinaryOperator.USHR));
        Expr count = expression(random.nextBoolean() ? INT : LONG, depth - 1, scope, folds);
        return new Expr.Binary(operator, value, count, GENERATED);
    }

    /**
     * {@code a / (b == 0 ? 1 : b)} or the remainder: Java semantics, never a division by zero. The divisor tree is
     * used twice, so it holds no fold: a fold used twice is a known bug (see KnownBugsTest).
     */
    private Expr guardedDivision(Type type, Supplier<Expr> operand, Expr divisor) {
        Expr zero = type == INT ? constant(0) : constant(0L);
        Expr one = type == INT ? constant(1) : constant(1L);
        Expr safe = select(divisor.isEqualTo(zero), one, divisor);
        return random.nextBoolean() ? operand.get().dividedBy(safe) : operand.get().remainder(safe);
    }

    /** A fold of 0 to 3 steps whose body may use its own and every enclosing accumulator. */
    private Expr fold(Type type, int depth, Scope scope) {
        Expr count = expression(INT, 1, scope, false).and(3);
        Expr init = expression(type, depth - 1, scope, true);
        return iterate(count, init, accumulator -> expression(type, depth - 1, scope.with(accumulator, type), true));
    }

    private Expr condition(int depth, Scope scope, boolean folds) {
        if (lanes) {
            return switch (depth <= 0 ? 3 : random.nextInt(4)) {
                case 0 -> condition(depth - 1, scope, folds).and(condition(depth - 1, scope, folds));
                case 1 -> condition(depth - 1, scope, folds).or(condition(depth - 1, scope, folds));
                case 2 -> condition(depth - 1, scope, folds).not();
                default -> comparison(numeric.getFirst(), Math.max(depth - 1, 0), scope, folds);
            };
        }
        if (depth <= 0) {
            return random.nextInt(4) == 0 ? constant(random.nextBoolean()) : comparison(pick(NUMERIC), 0, scope, folds);
        }
        return switch (random.nextInt(6)) {
            case 0 -> condition(depth - 1, scope, folds).and(condition(depth - 1, scope, folds));
            case 1 -> condition(depth - 1, scope, folds).or(condition(depth - 1, scope, folds));
            case 2 -> condition(depth - 1, scope, folds).xor(condition(depth - 1, scope, folds));
            case 3 -> condition(depth - 1, scope, folds).not();
            case 4 -> condition(depth - 1, scope, folds).isEqualTo(condition(depth - 1, scope, folds));
            default -> comparison(pick(NUMERIC), depth - 1, scope, folds);
        };
    }

    private Expr comparison(Type type, int depth, Scope scope, boolean folds) {
        Expr left = expression(type, depth, scope, folds);
        Expr right = expression(type, depth, scope, folds);
        return switch (random.nextInt(6)) {
            case 0 -> left.lessThan(right);
            case 1 -> left.lessOrEqual(right);
            case 2 -> left.greaterThan(right);
            case 3 -> left.greaterOrEqual(right);
            case 4 -> left.isEqualTo(right);
            default -> left.isNotEqualTo(right);
        };
    }

    private Expr leaf(Type type, Scope scope) {
        List<Supplier<Expr>> choices = new ArrayList<>();
        choices.add(() -> constantOf(type));
        if (type == INT) {
            choices.add(() -> index(INDICES[random.nextInt(rank)]));
            choices.add(() -> size(SIZES[random.nextInt(rank)]));
        }
        for (int p = 0; p < params.size(); p++) {
            if (params.get(p) == type) {
                String name = "p" + p;
                choices.add(() -> param(name));
            }
        }
        for (int a = 0; a < scope.accumulators().size(); a++) {
            if (scope.accumulatorTypes().get(a) == type) {
                Expr accumulator = scope.accumulators().get(a);
                choices.add(() -> accumulator);
            }
        }
        if (scope.actor() >= 0) {
            for (Input input : inputs) {
                if (input.type() == type) {
                    choices.add(() -> read(input.name(), offsetWithin(input.halo())));
                    choices.add(() -> read(input.name(), new int[rank]));
                }
            }
            for (int s = 0; s < states.size(); s++) {
                State state = states.get(s);
                int[] vector = state.type() == type
                        ? dependenceVector(state.reach(), firingPosition[s] < firingPosition[scope.actor()]) : null;
                if (vector != null) {
                    Supplier<Expr> stateRead = () -> {
                        dependences.add(vector);
                        return read(state.name(), Arrays.stream(vector).map(c -> -c).toArray());
                    };
                    choices.add(stateRead);
                    choices.add(stateRead);
                }
            }
        }
        return choices.get(random.nextInt(choices.size())).get();
    }

    /**
     * A dependence vector with components in [-reach, reach] that is lexicographically positive, or zero (only when
     * {@code zeroAllowed}); null when neither exists.
     */
    private int[] dependenceVector(int reach, boolean zeroAllowed) {
        if (zeroAllowed && (reach == 0 || random.nextInt(4) == 0)) {
            return new int[rank];
        }
        if (reach == 0) {
            return null;
        }
        int[] vector;
        do {
            vector = offsetWithin(reach);
            if (backward) {
                vector = Arrays.stream(vector).map(Math::abs).toArray();
            } else if (!DependenceMath.isLexicographicallyPositive(vector)) {
                vector = Arrays.stream(vector).map(c -> -c).toArray();
            }
        } while (DependenceMath.isZero(vector) || lanes && vector[0] > 1);
        return vector;
    }

    private int[] offsetWithin(int reach) {
        int[] offset = new int[rank];
        for (int d = 0; d < rank; d++) {
            offset[d] = random.nextInt(2 * reach + 1) - reach;
        }
        return offset;
    }

    private Expr constantOf(Type type) {
        return switch (type) {
            case INT -> constant((int) integral());
            case LONG -> constant(random.nextInt(8) == 0 ? random.nextLong() : integral());
            default -> constant(smallDouble());
        };
    }

    private static Expr clamp(Expr value) {
        return min(max(value, constant(-LIMIT)), constant(LIMIT));
    }

    /** Mostly small, sometimes at the edges of int, so that wrapping arithmetic gets exercised. */
    private long integral() {
        return switch (random.nextInt(10)) {
            case 0 -> pick(List.of(Integer.MIN_VALUE, Integer.MAX_VALUE, -1, 0));
            case 1 -> random.nextInt();
            default -> random.nextInt(41) - 20;
        };
    }

    /** Multiples of 1/8 in [-10, 10], and now and then a negative zero. */
    private double smallDouble() {
        return random.nextInt(20) == 0 ? -0.0 : (random.nextInt(161) - 80) / 8.0;
    }

    private Type other(Type type) {
        List<Type> others = NUMERIC.stream().filter(t -> t != type).toList();
        return pick(others);
    }

    private <T> T pick(List<T> choices) {
        return choices.get(random.nextInt(choices.size()));
    }
}
