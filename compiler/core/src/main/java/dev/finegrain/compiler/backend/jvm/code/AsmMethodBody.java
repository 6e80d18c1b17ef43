package dev.finegrain.compiler.backend.jvm.code;

import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

import java.util.List;
import java.util.Map;

/**
 * The instructions of one method of a generated class ({@link AsmEmitter} lays out the class): its statements and
 * expressions, one instruction sequence per loop-IR node, with each local in its slot.
 */
final class AsmMethodBody implements Opcodes {

    private static final String OPERATORS = "jdk/incubator/vector/VectorOperators";
    /** A vector operand of the Vector API's methods, which take any {@code Vector<E>}. */
    private static final String VECTOR = "Ljdk/incubator/vector/Vector;";

    private final JClass generated;
    private final MethodVisitor method;
    /** The slot of each local of a helper; null for run, whose locals carry their own slots. */
    private final Map<JExpr.Local, Integer> helperSlots;

    private AsmMethodBody(JClass generated, MethodVisitor method, Map<JExpr.Local, Integer> helperSlots) {
        this.generated = generated;
        this.method = method;
        this.helperSlots = helperSlots;
    }

    /** Emits {@code statements} and a return as the code of {@code method}, a method of {@code generated}. */
    static void emit(JClass generated, MethodVisitor method, Map<JExpr.Local, Integer> helperSlots, List<JStmt> statements) {
        method.visitCode();
        new AsmMethodBody(generated, method, helperSlots).statements(statements);
        method.visitInsn(RETURN);
        method.visitMaxs(0, 0);
        method.visitEnd();
    }

    private int slot(JExpr.Local local) {
        if (helperSlots == null) {
            return local.slot();
        }
        Integer slot = helperSlots.get(local);
        if (slot == null) {
            throw new IllegalStateException("local " + local.name() + " is neither a parameter nor a local of the helper being emitted");
        }
        return slot;
    }

    // ---- statements ----------------------------------------------------------------------------------------

    private void statements(List<JStmt> statements) {
        statements.forEach(this::statement);
    }

    private void statement(JStmt statement) {
        switch (statement) {
            case JStmt.Assign assign -> {
                expression(assign.value());
                method.visitVarInsn(opcode(assign.local().type(), ISTORE, LSTORE, DSTORE, ASTORE), slot(assign.local()));
            }
            case JStmt.Store store -> {
                expression(store.array());
                expression(store.index());
                expression(store.value());
                method.visitInsn(opcode(store.value().type(), IASTORE, LASTORE, DASTORE, AASTORE));
            }
            case JStmt.Loop loop -> {
                Label test = new Label();
                Label end = new Label();
                expression(loop.from());
                method.visitVarInsn(ISTORE, slot(loop.variable()));
                method.visitLabel(test);
                method.visitVarInsn(ILOAD, slot(loop.variable()));
                expression(loop.to());
                method.visitJumpInsn(IF_ICMPGE, end);
                statements(loop.body());
                if (loop.step() instanceof JExpr.Const step) {
                    method.visitIincInsn(slot(loop.variable()), (int) step.integral());
                } else {
                    method.visitVarInsn(ILOAD, slot(loop.variable()));
                    expression(loop.step());
                    method.visitInsn(IADD);
                    method.visitVarInsn(ISTORE, slot(loop.variable()));
                }
                method.visitJumpInsn(GOTO, test);
                method.visitLabel(end);
            }
            case JStmt.If branch -> ifElse(branch.condition(), () -> statements(branch.then()), () -> statements(branch.otherwise()));
            case JStmt.VectorStore store -> {
                expression(store.vector());
                expression(store.array());
                expression(store.index());
                method.visitMethodInsn(INVOKEVIRTUAL, store.vector().type().internalName(), "intoArray",
                        "(" + store.array().type().descriptor() + "I)V", false);
            }
            case JStmt.MaskedVectorStore store -> {
                expression(store.vector());
                expression(store.array());
                expression(store.index());
                expression(store.mask());
                method.visitMethodInsn(INVOKEVIRTUAL, store.vector().type().internalName(), "intoArray",
                        "(" + store.array().type().descriptor() + "I" + store.mask().type().descriptor() + ")V", false);
            }
            case JStmt.Evaluate evaluate -> {
                expression(evaluate.call());
                JType type = evaluate.call().type();
                if (type.kind() != JType.Kind.VOID) {
                    method.visitInsn(type.isWide() ? POP2 : POP);
                }
            }
            case JStmt.CallHelper call -> {
                method.visitVarInsn(ALOAD, 0);
                for (JExpr.Local argument : call.helper().parameters()) {
                    expression(argument);
                }
                method.visitMethodInsn(INVOKESPECIAL, generated.internalName(), call.helper().name(), call.helper().descriptor(), false);
            }
            case JStmt.Comment comment -> { }
        }
    }

    // ---- expressions ---------------------------------------------------------------------------------------

    private void expression(JExpr expr) {
        switch (expr) {
            case JExpr.Const c -> constant(c);
            case JExpr.Local local -> method.visitVarInsn(opcode(local.type(), ILOAD, LLOAD, DLOAD, ALOAD), slot(local));
            case JExpr.Field field -> {
                method.visitVarInsn(ALOAD, 0);
                method.visitFieldInsn(GETFIELD, generated.internalName(), field.name(), field.type().descriptor());
            }
            case JExpr.ArrayLoad load -> {
                expression(load.array());
                expression(load.index());
                method.visitInsn(load.array().type().equals(JType.BYTE_ARRAY) ? BALOAD : opcode(load.type(), IALOAD, LALOAD, DALOAD, AALOAD));
            }
            case JExpr.Binary binary when binary.op().isComparison() -> booleanValue(binary);
            case JExpr.Binary binary -> {
                expression(binary.left());
                expression(binary.right());
                method.visitInsn(arithmetic(binary.op(), binary.left().type()));
            }
            case JExpr.Negate negate -> {
                expression(negate.operand());
                method.visitInsn(opcode(negate.type(), INEG, LNEG, DNEG, -1));
            }
            case JExpr.Not not -> booleanValue(not);
            case JExpr.Conditional conditional -> ifElse(conditional.condition(), () -> expression(conditional.whenTrue()),
                    () -> expression(conditional.whenFalse()));
            case JExpr.Convert convert -> {
                expression(convert.operand());
                convert(convert.operand().type(), convert.type());
            }
            case JExpr.InvokeStatic call -> {
                call.arguments().forEach(this::expression);
                method.visitMethodInsn(INVOKESTATIC, call.owner(), call.name(), call.descriptor(), false);
            }
            case JExpr.InvokeVirtual call -> {
                expression(call.target());
                call.arguments().forEach(this::expression);
                boolean onInterface = call.target().type().kind() == JType.Kind.INTERFACE;
                method.visitMethodInsn(onInterface ? INVOKEINTERFACE : INVOKEVIRTUAL, call.target().type().internalName(),
                        call.name(), call.descriptor(), onInterface);
            }
            case JExpr.Species species -> method.visitFieldInsn(GETSTATIC, species.vector().internalName(), species.constant(),
                    species.type().descriptor());
            case JExpr.VectorLoad load when load.array().type().equals(JType.BYTE_ARRAY) -> {
                byteSpecies(load.species());
                expression(load.array());
                expression(load.index());
                method.visitMethodInsn(INVOKESTATIC, BYTE_VECTOR, "fromArray", "(" + VECTOR_SPECIES + "[BI)L" + BYTE_VECTOR + ";", false);
                widen(load.species());
            }
            case JExpr.MaskedVectorLoad load when load.array().type().equals(JType.BYTE_ARRAY) -> {
                byteSpecies(load.species());
                expression(load.array());
                expression(load.index());
                expression(load.mask());
                byteSpecies(load.species());
                method.visitMethodInsn(INVOKEVIRTUAL, VECTOR_MASK, "cast", "(" + VECTOR_SPECIES + ")L" + VECTOR_MASK + ";", false);
                method.visitMethodInsn(INVOKESTATIC, BYTE_VECTOR, "fromArray", "(" + VECTOR_SPECIES + "[BIL" + VECTOR_MASK + ";)L"
                        + BYTE_VECTOR + ";", false);
                widen(load.species());
            }
            case JExpr.VectorLoad load -> {
                expression(load.species());
                expression(load.array());
                expression(load.index());
                method.visitMethodInsn(INVOKESTATIC, load.type().internalName(), "fromArray",
                        "(" + load.species().type().descriptor() + load.array().type().descriptor() + "I)" + load.type().descriptor(), false);
            }
            case JExpr.MaskedVectorLoad load -> {
                expression(load.species());
                expression(load.array());
                expression(load.index());
                expression(load.mask());
                method.visitMethodInsn(INVOKESTATIC, load.type().internalName(), "fromArray", "(" + load.species().type().descriptor()
                        + load.array().type().descriptor() + "I" + load.mask().type().descriptor() + ")" + load.type().descriptor(), false);
            }
            case JExpr.VectorGather gather -> {
                expression(gather.species());
                expression(gather.array());
                expression(gather.index());
                expression(gather.indexMap());
                expression(gather.mapOffset());
                method.visitMethodInsn(INVOKESTATIC, gather.type().internalName(), "fromArray", "(" + gather.species().type().descriptor()
                        + gather.array().type().descriptor() + "I[II)" + gather.type().descriptor(), false);
            }
            case JExpr.LaneValue value -> {
                expression(value.vector());
                pushInt(method, value.lane());
                method.visitMethodInsn(INVOKEVIRTUAL, value.vector().type().internalName(), "lane", "(I)" + value.type().descriptor(), false);
            }
            case JExpr.NewArrayOfLength array -> {
                expression(array.length());
                method.visitIntInsn(NEWARRAY, arrayType(array.element()));
            }
            case JExpr.Broadcast broadcast -> {
                expression(broadcast.species());
                expression(broadcast.value());
                method.visitMethodInsn(INVOKESTATIC, broadcast.type().internalName(), "broadcast", "(" + broadcast.species().type().descriptor()
                        + broadcast.species().lane().descriptor() + ")" + broadcast.type().descriptor(), false);
            }
            case JExpr.Lanewise lanewise -> lanewise(lanewise);
            case JExpr.LaneCompare compare -> {
                expression(compare.left());
                method.visitFieldInsn(GETSTATIC, OPERATORS, compare.op().name(), "L" + OPERATORS + "$Comparison;");
                expression(compare.right());
                method.visitMethodInsn(INVOKEVIRTUAL, compare.left().type().internalName(), "compare",
                        "(L" + OPERATORS + "$Comparison;" + VECTOR + ")" + compare.type().descriptor(), false);
            }
            case JExpr.Blend blend -> {
                expression(blend.whenFalse());
                expression(blend.whenTrue());
                expression(blend.mask());
                method.visitMethodInsn(INVOKEVIRTUAL, blend.type().internalName(), "blend",
                        "(" + VECTOR + blend.mask().type().descriptor() + ")" + blend.type().descriptor(), false);
            }
            case JExpr.Rearrange rearrange -> {
                expression(rearrange.indexes());
                expression(rearrange.source());
                method.visitMethodInsn(INVOKEVIRTUAL, rearrange.type().internalName(), "selectFrom",
                        "(" + VECTOR + ")" + rearrange.type().descriptor(), false);
            }
            case JExpr.Permute permute -> {
                expression(permute.indexes());
                expression(permute.first());
                expression(permute.second());
                method.visitMethodInsn(INVOKEVIRTUAL, permute.type().internalName(), "selectFrom",
                        "(" + VECTOR + VECTOR + ")" + permute.type().descriptor(), false);
            }
            case JExpr.NewArray array -> {
                pushInt(method, array.values().size());
                method.visitIntInsn(NEWARRAY, arrayType(array.element()));
                for (int i = 0; i < array.values().size(); i++) {
                    method.visitInsn(DUP);
                    pushInt(method, i);
                    expression(array.values().get(i));
                    method.visitInsn(opcode(array.element(), IASTORE, LASTORE, DASTORE, AASTORE));
                }
            }
        }
    }

    private static final String BYTE_VECTOR = "jdk/incubator/vector/ByteVector";
    private static final String VECTOR_MASK = "jdk/incubator/vector/VectorMask";
    private static final String VECTOR_SPECIES = "Ljdk/incubator/vector/VectorSpecies;";

    /** The {@code ByteVector} species of as many lanes as {@code species}. */
    private void byteSpecies(JExpr.Species species) {
        method.visitFieldInsn(GETSTATIC, BYTE_VECTOR, species.byteConstant(), VECTOR_SPECIES);
    }

    /** The byte vector on the stack widened to {@code species}: {@code (IntVector) v.convertShape(B2I, species, 0)}. */
    private void widen(JExpr.Species species) {
        method.visitFieldInsn(GETSTATIC, "jdk/incubator/vector/VectorOperators", "B2I", "Ljdk/incubator/vector/VectorOperators$Conversion;");
        expression(species);
        method.visitInsn(ICONST_0);
        method.visitMethodInsn(INVOKEVIRTUAL, BYTE_VECTOR, "convertShape", "(Ljdk/incubator/vector/VectorOperators$Conversion;"
                + VECTOR_SPECIES + "I)Ljdk/incubator/vector/Vector;", false);
        method.visitTypeInsn(CHECKCAST, species.vector().internalName());
    }

    private static int arrayType(JType element) {
        return switch (element.kind()) {
            case INT -> T_INT;
            case LONG -> T_LONG;
            case DOUBLE -> T_DOUBLE;
            default -> throw new IllegalStateException("no primitive array of " + element);
        };
    }

    /** A vector's or a mask's lane-wise method; XOR goes through {@code lanewise(VectorOperators.XOR, v)}. */
    private void lanewise(JExpr.Lanewise lanewise) {
        JType type = lanewise.type();
        expression(lanewise.left());
        if (lanewise.op() == JExpr.LaneOp.XOR) {
            method.visitFieldInsn(GETSTATIC, OPERATORS, "XOR", "L" + OPERATORS + "$Associative;");
        }
        String parameters = "";
        if (lanewise.right() != null) {
            expression(lanewise.right());
            String operand = type.kind() == JType.Kind.MASK ? type.descriptor() : VECTOR;
            parameters = lanewise.op() == JExpr.LaneOp.XOR ? "L" + OPERATORS + "$Binary;" + operand : operand;
        }
        method.visitMethodInsn(INVOKEVIRTUAL, type.internalName(), lanewise.op().method, "(" + parameters + ")" + type.descriptor(), false);
    }

    /** Pushes 1 or 0 for a boolean expression. */
    private void booleanValue(JExpr condition) {
        Label isFalse = new Label();
        Label end = new Label();
        jumpIfFalse(condition, isFalse);
        method.visitInsn(ICONST_1);
        method.visitJumpInsn(GOTO, end);
        method.visitLabel(isFalse);
        method.visitInsn(ICONST_0);
        method.visitLabel(end);
    }

    /** Jumps to {@code target} when the boolean expression is false, with Java's semantics for NaN. */
    /** The code of {@code whenTrue} where {@code condition} holds, else that of {@code whenFalse}: an if statement or a ?: expression. */
    private void ifElse(JExpr condition, Runnable whenTrue, Runnable whenFalse) {
        Label otherwise = new Label();
        Label end = new Label();
        jumpIfFalse(condition, otherwise);
        whenTrue.run();
        method.visitJumpInsn(GOTO, end);
        method.visitLabel(otherwise);
        whenFalse.run();
        method.visitLabel(end);
    }

    private void jumpIfFalse(JExpr condition, Label target) {
        if (condition instanceof JExpr.Not not) {
            Label skip = new Label();
            jumpIfFalse(not.operand(), skip);
            method.visitJumpInsn(GOTO, target);
            method.visitLabel(skip);
            return;
        }
        if (!(condition instanceof JExpr.Binary binary) || !binary.op().isComparison()) {
            expression(condition);
            method.visitJumpInsn(IFEQ, target);
            return;
        }
        expression(binary.left());
        expression(binary.right());
        JType.Kind kind = binary.left().type().kind();
        if (kind == JType.Kind.INT || kind == JType.Kind.BOOLEAN) {
            method.visitJumpInsn(switch (binary.op()) {
                case LT -> IF_ICMPGE;
                case LE -> IF_ICMPGT;
                case GT -> IF_ICMPLE;
                case GE -> IF_ICMPLT;
                case EQ -> IF_ICMPNE;
                case NE -> IF_ICMPEQ;
                default -> throw new IllegalStateException(binary.op().name());
            }, target);
            return;
        }
        if (kind == JType.Kind.LONG) {
            method.visitInsn(LCMP);
        } else {
            boolean lessFamily = binary.op() == JExpr.Binary.Op.LT || binary.op() == JExpr.Binary.Op.LE;
            method.visitInsn(lessFamily ? DCMPG : DCMPL);
        }
        method.visitJumpInsn(switch (binary.op()) {
            case LT -> IFGE;
            case LE -> IFGT;
            case GT -> IFLE;
            case GE -> IFLT;
            case EQ -> IFNE;
            case NE -> IFEQ;
            default -> throw new IllegalStateException(binary.op().name());
        }, target);
    }

    private static int arithmetic(JExpr.Binary.Op op, JType type) {
        int offset = switch (type.kind()) {
            case INT, BOOLEAN -> 0;
            case LONG -> 1;
            case DOUBLE -> 3;
            default -> throw new IllegalStateException("arithmetic on " + type);
        };
        return switch (op) {
            case ADD -> IADD + offset;
            case SUB -> ISUB + offset;
            case MUL -> IMUL + offset;
            case DIV -> IDIV + offset;
            case REM -> IREM + offset;
            case AND -> offset == 0 ? IAND : LAND;
            case OR -> offset == 0 ? IOR : LOR;
            case XOR -> offset == 0 ? IXOR : LXOR;
            case SHL -> offset == 0 ? ISHL : LSHL;
            case SHR -> offset == 0 ? ISHR : LSHR;
            case USHR -> offset == 0 ? IUSHR : LUSHR;
            default -> throw new IllegalStateException(op.name());
        };
    }

    private void convert(JType from, JType to) {
        JType.Kind source = from.kind() == JType.Kind.BOOLEAN ? JType.Kind.INT : from.kind();
        JType.Kind target = to.kind() == JType.Kind.BOOLEAN ? JType.Kind.INT : to.kind();
        if (source == target) {
            return;
        }
        method.visitInsn(switch (source.name() + "->" + target.name()) {
            case "INT->LONG" -> I2L;
            case "INT->DOUBLE" -> I2D;
            case "LONG->INT" -> L2I;
            case "LONG->DOUBLE" -> L2D;
            case "DOUBLE->INT" -> D2I;
            case "DOUBLE->LONG" -> D2L;
            default -> throw new IllegalStateException("no conversion " + from + " -> " + to);
        });
    }

    private void constant(JExpr.Const c) {
        switch (c.type().kind()) {
            case INT, BOOLEAN -> pushInt(method, (int) c.integral());
            case LONG -> {
                if (c.integral() == 0 || c.integral() == 1) {
                    method.visitInsn(LCONST_0 + (int) c.integral());
                } else {
                    method.visitLdcInsn(c.integral());
                }
            }
            case DOUBLE -> {
                if (Double.doubleToRawLongBits(c.real()) == 0L || c.real() == 1.0) {
                    method.visitInsn(c.real() == 1.0 ? DCONST_1 : DCONST_0);
                } else {
                    method.visitLdcInsn(c.real());
                }
            }
            default -> throw new IllegalStateException("constant of " + c.type());
        }
    }

    static void pushInt(MethodVisitor visitor, int value) {
        if (value >= -1 && value <= 5) {
            visitor.visitInsn(ICONST_0 + value);
        } else if (value >= Byte.MIN_VALUE && value <= Byte.MAX_VALUE) {
            visitor.visitIntInsn(BIPUSH, value);
        } else if (value >= Short.MIN_VALUE && value <= Short.MAX_VALUE) {
            visitor.visitIntInsn(SIPUSH, value);
        } else {
            visitor.visitLdcInsn(value);
        }
    }

    private static int opcode(JType type, int forInt, int forLong, int forDouble, int forReference) {
        return switch (type.kind()) {
            case INT, BOOLEAN -> forInt;
            case LONG -> forLong;
            case DOUBLE -> forDouble;
            case REFERENCE, INTERFACE, VECTOR, MASK -> forReference;
            case VOID -> throw new IllegalStateException("void value");
        };
    }
}
