package dev.finegrain.compiler.backend.jvm.code;

import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Translates a {@link JClass} to JVM bytecode: the class, its fields and constructor here, each method's instructions
 * in {@link AsmMethodBody}, one instruction sequence per loop-IR node; no optimisation here.
 */
public final class AsmEmitter implements Opcodes {

    static final String FRAME_DESCRIPTOR = "([Ljava/lang/Object;[J[D[I[Ljava/lang/Object;Ldev/finegrain/runtime/jvm/Watchdog;)V";

    private final JClass generated;

    private AsmEmitter(JClass generated) {
        this.generated = generated;
    }

    public static byte[] emit(JClass generated) {
        return new AsmEmitter(generated).emitClass();
    }

    private byte[] emitClass() {
        ClassWriter writer = new ClassWriter(ClassWriter.COMPUTE_FRAMES | ClassWriter.COMPUTE_MAXS) {
            @Override
            protected String getCommonSuperClass(String first, String second) {
                return "java/lang/Object";
            }
        };
        writer.visit(V21, ACC_PUBLIC | ACC_FINAL | ACC_SUPER, generated.internalName(), null, "java/lang/Object",
                generated.interfaces().toArray(String[]::new));
        writer.visitField(ACC_PUBLIC | ACC_STATIC | ACC_FINAL, JClass.FINGERPRINT_FIELD, "Ljava/lang/String;", null,
                generated.fingerprint()).visitEnd();
        generated.byteFields().ifPresent(ids ->
                writer.visitField(ACC_PUBLIC | ACC_STATIC | ACC_FINAL, JClass.BYTE_FIELDS_FIELD, "Ljava/lang/String;", null, ids).visitEnd());
        generated.rows().ifPresent(rows -> {
            writer.visitField(ACC_PUBLIC | ACC_STATIC | ACC_FINAL, JClass.ROW_SKEW_FIELD, "I", null, rows.skew()).visitEnd();
            writer.visitField(ACC_PUBLIC | ACC_STATIC | ACC_FINAL, JClass.ROW_LANES_FIELD, "I", null, rows.lanes()).visitEnd();
            if (rows.bandGroup() > 0) {
                writer.visitField(ACC_PUBLIC | ACC_STATIC | ACC_FINAL, JClass.ROW_BAND_GROUP_FIELD, "I", null, rows.bandGroup()).visitEnd();
            }
            if (rows.blockColumns() > 0) {
                writer.visitField(ACC_PUBLIC | ACC_STATIC | ACC_FINAL, JClass.ROW_BLOCK_COLUMNS_FIELD, "I", null, rows.blockColumns()).visitEnd();
            }
            if (rows.hyperplanes()) {
                writer.visitField(ACC_PUBLIC | ACC_STATIC | ACC_FINAL, JClass.ROW_HYPERPLANES_FIELD, "I", null, 1).visitEnd();
            }
        });
        for (JClass.FieldBinding field : generated.fields()) {
            writer.visitField(ACC_PRIVATE | ACC_FINAL, field.name(), field.type().descriptor(), null, null).visitEnd();
        }
        emitConstructor(writer);
        AsmMethodBody.emit(generated, writer.visitMethod(ACC_PUBLIC, "run", "(II)V", null, null), null, generated.run());
        for (JClass.Helper helper : generated.helpers()) {
            emitHelper(writer, helper);
        }
        writer.visitEnd();
        return writer.toByteArray();
    }

    /** A private instance method: slot 0 is this, then the parameters in order, then the helper's own locals. */
    private void emitHelper(ClassWriter writer, JClass.Helper helper) {
        Map<JExpr.Local, Integer> table = new HashMap<>();
        int next = 1;
        for (List<JExpr.Local> group : List.of(helper.parameters(), helper.locals())) {
            for (JExpr.Local local : group) {
                table.put(local, next);
                next += local.type().isWide() ? 2 : 1;
            }
        }
        AsmMethodBody.emit(generated, writer.visitMethod(ACC_PRIVATE, helper.name(), helper.descriptor(), null, null), table,
                helper.body());
    }

    private void emitConstructor(ClassWriter writer) {
        MethodVisitor init = writer.visitMethod(ACC_PUBLIC, "<init>", FRAME_DESCRIPTOR, null, null);
        init.visitCode();
        init.visitVarInsn(ALOAD, 0);
        init.visitMethodInsn(INVOKESPECIAL, "java/lang/Object", "<init>", "()V", false);
        for (JClass.FieldBinding field : generated.fields()) {
            init.visitVarInsn(ALOAD, 0);
            int slot = field.source().ordinal() + 1;
            init.visitVarInsn(ALOAD, slot);
            if (field.source() != JClass.Source.WATCHDOG) {
                AsmMethodBody.pushInt(init, field.index());
                switch (field.source()) {
                    case ARRAYS, SYNC -> {
                        init.visitInsn(AALOAD);
                        init.visitTypeInsn(CHECKCAST, field.type().internalName());
                    }
                    case INTEGRAL_PARAMS -> {
                        init.visitInsn(LALOAD);
                        if (field.type().kind() != JType.Kind.LONG) {
                            init.visitInsn(L2I);
                        }
                    }
                    case REAL_PARAMS -> init.visitInsn(DALOAD);
                    case SIZES -> init.visitInsn(IALOAD);
                    case WATCHDOG -> throw new IllegalStateException();
                }
            }
            init.visitFieldInsn(PUTFIELD, generated.internalName(), field.name(), field.type().descriptor());
        }
        init.visitInsn(RETURN);
        init.visitMaxs(0, 0);
        init.visitEnd();
    }
}
