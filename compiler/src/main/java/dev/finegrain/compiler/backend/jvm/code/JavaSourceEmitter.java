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
        for (JExpr.Local local : generated.locals()) {
            if (local.slot() > 2) {
                body.addStatement("$L $N = $L", local.type().javaName(), local.name(), zero(local.type()));
            }
        }
        statements(body, generated.run());
        run.addCode(body.build());
        type.addMethod(run.build());
        return JavaFile.builder(generated.packageName(), type.build()).skipJavaLangImports(true).indent("    ").build();
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
                case JStmt.Evaluate evaluate -> body.addStatement("$L", expression(evaluate.call()));
                case JStmt.Comment comment -> body.add("// $L\n", comment.text());
            }
        }
    }

    /** Fully parenthesised below the top, so the source's evaluation order is the bytecode's. */
    static String expression(JExpr expr) {
        return switch (expr) {
            case JExpr.Const c -> constant(c);
            case JExpr.Local local -> local.name();
            case JExpr.Field field -> "this." + field.name();
            case JExpr.ArrayLoad load -> expression(load.array()) + "[" + expression(load.index()) + "]";
            case JExpr.Binary binary -> "(" + expression(binary.left()) + " " + binary.op().symbol + " " + expression(binary.right()) + ")";
            // the space keeps the negation of a negative constant from reading as a decrement: (- -3), not (--3)
            case JExpr.Negate negate -> "(- " + expression(negate.operand()) + ")";
            case JExpr.Not not -> "(!" + expression(not.operand()) + ")";
            case JExpr.Conditional c -> "(" + expression(c.condition()) + " ? " + expression(c.whenTrue()) + " : "
                    + expression(c.whenFalse()) + ")";
            case JExpr.Convert convert when convert.operand().type().kind() == JType.Kind.BOOLEAN ->
                    "(" + expression(convert.operand()) + " ? 1 : 0)";
            case JExpr.Convert convert when convert.type().kind() == JType.Kind.BOOLEAN ->
                    "(" + expression(convert.operand()) + " != 0)";
            case JExpr.Convert convert -> "((" + convert.type().javaName() + ") " + expression(convert.operand()) + ")";
            case JExpr.InvokeStatic call -> call.owner().replace('/', '.') + "." + call.name() + "("
                    + String.join(", ", call.arguments().stream().map(JavaSourceEmitter::expression).toList()) + ")";
            case JExpr.InvokeVirtual call -> expression(call.target()) + "." + call.name() + "("
                    + String.join(", ", call.arguments().stream().map(JavaSourceEmitter::expression).toList()) + ")";
        };
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
            case REFERENCE -> type.internalName().startsWith("[")
                    ? com.palantir.javapoet.ArrayTypeName.of(typeName(type.element()))
                    : ClassName.bestGuess(type.internalName().replace('/', '.'));
        };
    }
}
