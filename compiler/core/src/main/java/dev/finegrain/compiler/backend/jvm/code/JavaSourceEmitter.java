package dev.finegrain.compiler.backend.jvm.code;

import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.JavaFile;
import com.palantir.javapoet.MethodSpec;
import com.palantir.javapoet.TypeName;
import com.palantir.javapoet.TypeSpec;

import javax.lang.model.element.Modifier;
import java.util.List;

/**
 * Translates a {@link JClass} to readable Java source with Palantir JavaPoet: the same statements the
 * {@link AsmEmitter} turns into bytecode, so the source shows exactly what runs (and compiles to the same results).
 */
public final class JavaSourceEmitter {

    private JavaSourceEmitter() {}

    public static JavaFile emit(JClass generated) {
        TypeSpec.Builder type = TypeSpec.classBuilder(generated.simpleName())
                .addModifiers(Modifier.PUBLIC, Modifier.FINAL)
                .addJavadoc(generated.javadoc());
        for (String implemented : generated.interfaces()) {
            type.addSuperinterface(ClassName.bestGuess(implemented.replace('/', '.')));
        }
        type.addField(com.palantir.javapoet.FieldSpec.builder(String.class, JClass.FINGERPRINT_FIELD, Modifier.PUBLIC,
                Modifier.STATIC, Modifier.FINAL).initializer("$S", generated.fingerprint()).build());
        generated.byteFields().ifPresent(ids -> type.addField(com.palantir.javapoet.FieldSpec.builder(String.class,
                JClass.BYTE_FIELDS_FIELD, Modifier.PUBLIC, Modifier.STATIC, Modifier.FINAL).initializer("$S", ids).build()));
        generated.rows().ifPresent(rows -> {
            type.addField(com.palantir.javapoet.FieldSpec.builder(int.class, JClass.ROW_SKEW_FIELD, Modifier.PUBLIC,
                    Modifier.STATIC, Modifier.FINAL).initializer("$L", rows.skew()).build());
            type.addField(com.palantir.javapoet.FieldSpec.builder(int.class, JClass.ROW_LANES_FIELD, Modifier.PUBLIC,
                    Modifier.STATIC, Modifier.FINAL).initializer("$L", rows.lanes()).build());
            if (rows.bandGroup() > 0) {
                type.addField(com.palantir.javapoet.FieldSpec.builder(int.class, JClass.ROW_BAND_GROUP_FIELD, Modifier.PUBLIC,
                        Modifier.STATIC, Modifier.FINAL).initializer("$L", rows.bandGroup()).build());
            }
            if (rows.blockColumns() > 0) {
                type.addField(com.palantir.javapoet.FieldSpec.builder(int.class, JClass.ROW_BLOCK_COLUMNS_FIELD, Modifier.PUBLIC,
                        Modifier.STATIC, Modifier.FINAL).initializer("$L", rows.blockColumns()).build());
            }
            if (rows.hyperplanes()) {
                type.addField(com.palantir.javapoet.FieldSpec.builder(int.class, JClass.ROW_HYPERPLANES_FIELD, Modifier.PUBLIC,
                        Modifier.STATIC, Modifier.FINAL).initializer("$L", 1).build());
            }
        });
        MethodSpec.Builder constructor = MethodSpec.constructorBuilder().addModifiers(Modifier.PUBLIC)
                .addParameter(Object[].class, "arrays")
                .addParameter(long[].class, "integralParams")
                .addParameter(double[].class, "realParams")
                .addParameter(int[].class, "sizes")
                .addParameter(Object[].class, "sync")
                .addParameter(ClassName.get("dev.finegrain.runtime.jvm", "Watchdog"), "watchdog");
        for (JClass.FieldBinding field : generated.fields()) {
            type.addField(typeName(field.type()), field.name(), Modifier.PRIVATE, Modifier.FINAL);
            String source = switch (field.source()) {
                case ARRAYS -> "(" + field.type().javaName() + ") arrays[" + field.index() + "]";
                case SYNC -> "(" + field.type().javaName() + ") sync[" + field.index() + "]";
                case INTEGRAL_PARAMS -> switch (field.type().kind()) {
                    case LONG -> "integralParams[" + field.index() + "]";
                    case BOOLEAN -> "integralParams[" + field.index() + "] != 0";
                    default -> "(" + field.type().javaName() + ") integralParams[" + field.index() + "]";
                };
                case REAL_PARAMS -> "realParams[" + field.index() + "]";
                case SIZES -> "sizes[" + field.index() + "]";
                case WATCHDOG -> "watchdog";
            };
            constructor.addStatement("this.$N = $L", field.name(), source);
        }
        type.addMethod(constructor.build());

        MethodSpec.Builder run = MethodSpec.methodBuilder("run").addAnnotation(Override.class).addModifiers(Modifier.PUBLIC)
                .addParameter(int.class, "worker").addParameter(int.class, "workers");
        CodeBlock.Builder body = CodeBlock.builder();
        declare(body, generated.locals().stream().filter(local -> local.slot() > 2).toList());
        statements(body, generated.run());
        run.addCode(body.build());
        type.addMethod(run.build());
        for (JClass.Helper helper : generated.helpers()) {
            MethodSpec.Builder method = MethodSpec.methodBuilder(helper.name()).addModifiers(Modifier.PRIVATE).addJavadoc("$L\n", helper.why());
            helper.parameters().forEach(parameter -> method.addParameter(typeName(parameter.type()), parameter.name()));
            CodeBlock.Builder helperBody = CodeBlock.builder();
            declare(helperBody, helper.locals());
            statements(helperBody, helper.body());
            method.addCode(helperBody.build());
            type.addMethod(method.build());
        }
        return JavaFile.builder(generated.packageName(), type.build()).skipJavaLangImports(true).indent("    ").build();
    }

    /** Declares each local with its type's zero value. */
    private static void declare(CodeBlock.Builder body, List<JExpr.Local> locals) {
        for (JExpr.Local local : locals) {
            if (local.type().kind() == JType.Kind.VECTOR || local.type().kind() == JType.Kind.MASK) {
                // a vector class is imported, so the unrolled lane code reads IntVector rather than its qualified name
                body.addStatement("$T $N = $L", typeName(local.type()), local.name(), zero(local.type()));
            } else {
                body.addStatement("$L $N = $L", local.type().javaName(), local.name(), zero(local.type()));
            }
        }
    }

    private static void statements(CodeBlock.Builder body, List<JStmt> statements) {
        for (JStmt statement : statements) {
            switch (statement) {
                case JStmt.Assign assign -> body.addStatement("$N = $L", assign.local().name(), expression(assign.value()));
                case JStmt.Store store -> body.addStatement("$L[$L] = $L", expression(store.array()), expression(store.index()),
                        expression(store.value()));
                case JStmt.Loop loop -> {
                    String step = loop.step() instanceof JExpr.Const c && c.integral() == 1 ? "++" : " += " + expression(loop.step());
                    body.beginControlFlow("for ($N = $L; $N < $L; $N$L)", loop.variable().name(), expression(loop.from()),
                            loop.variable().name(), expression(loop.to()), loop.variable().name(), step);
                    statements(body, loop.body());
                    body.endControlFlow();
                }
                case JStmt.If branch -> {
                    body.beginControlFlow("if ($L)", expression(branch.condition()));
                    statements(body, branch.then());
                    if (!branch.otherwise().isEmpty()) {
                        body.nextControlFlow("else");
                        statements(body, branch.otherwise());
                    }
                    body.endControlFlow();
                }
                case JStmt.VectorStore store -> body.addStatement("$L.intoArray($L, $L)", expression(store.vector()),
                        expression(store.array()), expression(store.index()));
                case JStmt.MaskedVectorStore store -> body.addStatement("$L.intoArray($L, $L, $L)", expression(store.vector()),
                        expression(store.array()), expression(store.index()), expression(store.mask()));
                case JStmt.Evaluate evaluate -> body.addStatement("$L", expression(evaluate.call()));
                case JStmt.CallHelper call -> body.addStatement("$N($L)", call.helper().name(),
                        String.join(", ", call.helper().parameters().stream().map(JExpr.Local::name).toList()));
                case JStmt.Comment comment -> body.add("// $L\n", comment.text());
            }
        }
    }

    /** Fully parenthesised below the top, so the source's evaluation order is the bytecode's. */
    static CodeBlock expression(JExpr expr) {
        return switch (expr) {
            case JExpr.Const c -> CodeBlock.of("$L", constant(c));
            case JExpr.Local local -> CodeBlock.of("$L", local.name());
            case JExpr.Field field -> CodeBlock.of("this.$L", field.name());
            case JExpr.ArrayLoad load -> CodeBlock.of("$L[$L]", expression(load.array()), expression(load.index()));
            case JExpr.Binary binary -> CodeBlock.of("($L $L $L)", expression(binary.left()), binary.op().symbol, expression(binary.right()));
            // the space keeps the negation of a negative constant from reading as a decrement: (- -3), not (--3)
            case JExpr.Negate negate -> CodeBlock.of("(- $L)", expression(negate.operand()));
            case JExpr.Not not -> CodeBlock.of("(!$L)", expression(not.operand()));
            case JExpr.Conditional c -> CodeBlock.of("($L ? $L : $L)", expression(c.condition()), expression(c.whenTrue()),
                    expression(c.whenFalse()));
            case JExpr.Convert convert when convert.operand().type().kind() == JType.Kind.BOOLEAN ->
                    CodeBlock.of("($L ? 1 : 0)", expression(convert.operand()));
            case JExpr.Convert convert when convert.type().kind() == JType.Kind.BOOLEAN ->
                    CodeBlock.of("($L != 0)", expression(convert.operand()));
            case JExpr.Convert convert -> CodeBlock.of("(($L) $L)", convert.type().javaName(), expression(convert.operand()));
            case JExpr.InvokeStatic call -> CodeBlock.of("$L.$L($L)", call.owner().replace('/', '.'), call.name(), arguments(call.arguments()));
            case JExpr.InvokeVirtual call -> CodeBlock.of("$L.$L($L)", expression(call.target()), call.name(), arguments(call.arguments()));
            case JExpr.Species species -> CodeBlock.of("$T.$L", className(species.vector()), species.constant());
            case JExpr.VectorLoad load when load.array().type().equals(JType.BYTE_ARRAY) -> widened(load.species(),
                    CodeBlock.of("$T.fromArray($T.$L, $L, $L)", BYTE_VECTOR, BYTE_VECTOR, load.species().byteConstant(),
                            expression(load.array()), expression(load.index())));
            case JExpr.MaskedVectorLoad load when load.array().type().equals(JType.BYTE_ARRAY) -> widened(load.species(),
                    CodeBlock.of("$T.fromArray($T.$L, $L, $L, $L.cast($T.$L))", BYTE_VECTOR, BYTE_VECTOR, load.species().byteConstant(),
                            expression(load.array()), expression(load.index()), expression(load.mask()), BYTE_VECTOR,
                            load.species().byteConstant()));
            case JExpr.VectorLoad load -> CodeBlock.of("$T.fromArray($L, $L, $L)", className(load.type()), expression(load.species()),
                    expression(load.array()), expression(load.index()));
            case JExpr.MaskedVectorLoad load -> CodeBlock.of("$T.fromArray($L, $L, $L, $L)", className(load.type()),
                    expression(load.species()), expression(load.array()), expression(load.index()), expression(load.mask()));
            case JExpr.VectorGather gather -> CodeBlock.of("$T.fromArray($L, $L, $L, $L, $L)", className(gather.type()),
                    expression(gather.species()), expression(gather.array()), expression(gather.index()), expression(gather.indexMap()),
                    expression(gather.mapOffset()));
            case JExpr.LaneValue value -> CodeBlock.of("$L.lane($L)", expression(value.vector()), value.lane());
            case JExpr.NewArrayOfLength array -> CodeBlock.of("new $L[$L]", array.element().javaName(), expression(array.length()));
            case JExpr.Broadcast broadcast -> CodeBlock.of("$T.broadcast($L, $L)", className(broadcast.type()),
                    expression(broadcast.species()), expression(broadcast.value()));
            case JExpr.Lanewise lanewise when lanewise.op() == JExpr.LaneOp.XOR -> CodeBlock.of("$L.lanewise($T.XOR, $L)",
                    expression(lanewise.left()), OPERATORS, expression(lanewise.right()));
            case JExpr.Lanewise lanewise when lanewise.right() == null -> CodeBlock.of("$L.$L()", expression(lanewise.left()),
                    lanewise.op().method);
            case JExpr.Lanewise lanewise -> CodeBlock.of("$L.$L($L)", expression(lanewise.left()), lanewise.op().method,
                    expression(lanewise.right()));
            case JExpr.LaneCompare compare -> CodeBlock.of("$L.compare($T.$L, $L)", expression(compare.left()), OPERATORS,
                    compare.op().name(), expression(compare.right()));
            case JExpr.Blend blend -> CodeBlock.of("$L.blend($L, $L)", expression(blend.whenFalse()), expression(blend.whenTrue()),
                    expression(blend.mask()));
            case JExpr.Rearrange rearrange -> CodeBlock.of("$L.selectFrom($L)", expression(rearrange.indexes()), expression(rearrange.source()));
            case JExpr.Permute permute -> CodeBlock.of("$L.selectFrom($L, $L)", expression(permute.indexes()), expression(permute.first()),
                    expression(permute.second()));
            case JExpr.NewArray array -> CodeBlock.of("new $L[] {$L}", array.element().javaName(), arguments(array.values()));
        };
    }

    private static final ClassName OPERATORS = ClassName.get("jdk.incubator.vector", "VectorOperators");

    private static CodeBlock arguments(List<JExpr> arguments) {
        return arguments.stream().map(JavaSourceEmitter::expression).collect(CodeBlock.joining(", "));
    }

    private static final ClassName BYTE_VECTOR = ClassName.get("jdk.incubator.vector", "ByteVector");

    /** A byte vector of as many lanes as {@code species}, widened to it (an input kept in bytes). */
    private static CodeBlock widened(JExpr.Species species, CodeBlock bytes) {
        return CodeBlock.of("(($T) $L.convertShape($T.B2I, $L, 0))", className(species.vector()), bytes, OPERATORS, expression(species));
    }

    /** A class by its internal name; JavaPoet imports it once and spells it by its simple name. */
    private static ClassName className(JType type) {
        return ClassName.bestGuess(type.internalName().replace('/', '.'));
    }

    private static String constant(JExpr.Const c) {
        return switch (c.type().kind()) {
            case INT -> c.integral() == Integer.MIN_VALUE ? "Integer.MIN_VALUE" : Long.toString(c.integral());
            case LONG -> c.integral() == Long.MIN_VALUE ? "Long.MIN_VALUE" : c.integral() + "L";
            case DOUBLE -> Double.isNaN(c.real()) ? "Double.NaN"
                    : Double.isInfinite(c.real()) ? (c.real() > 0 ? "Double.POSITIVE_INFINITY" : "Double.NEGATIVE_INFINITY")
                    : Double.toString(c.real());
            case BOOLEAN -> c.integral() != 0 ? "true" : "false";
            default -> throw new IllegalStateException("constant of " + c.type());
        };
    }

    private static String zero(JType type) {
        return switch (type.kind()) {
            case INT -> "0";
            case LONG -> "0L";
            case DOUBLE -> "0.0";
            case BOOLEAN -> "false";
            default -> "null";
        };
    }

    private static TypeName typeName(JType type) {
        return switch (type.kind()) {
            case INT -> TypeName.INT;
            case LONG -> TypeName.LONG;
            case DOUBLE -> TypeName.DOUBLE;
            case BOOLEAN -> TypeName.BOOLEAN;
            case VOID -> TypeName.VOID;
            case REFERENCE -> type.equals(JType.BYTE_ARRAY) ? com.palantir.javapoet.ArrayTypeName.of(TypeName.BYTE)
                    : type.internalName().startsWith("[") ? com.palantir.javapoet.ArrayTypeName.of(typeName(type.element()))
                    : ClassName.bestGuess(type.internalName().replace('/', '.'));
            case INTERFACE -> ClassName.bestGuess(type.internalName().replace('/', '.'));
            case VECTOR -> className(type);
            case MASK -> com.palantir.javapoet.ParameterizedTypeName.get(className(type), typeName(type.lane()).box());
        };
    }
}
