package dev.finegrain.compiler.backend.jvm.code;

import java.util.List;
import java.util.Optional;

/**
 * A generated kernel class: final fields bound from a frame by the constructor, one {@code run(int worker,
 * int workers)} method, and the private helper methods that run calls. The constructor's signature is fixed:
 * {@code (Object[] arrays, long[] integralParams, double[] realParams, int[] sizes, Object[] sync, Watchdog)}; a class
 * with {@link #rows} takes, after the domain's sizes, each field's row pitch and front, then its blocks' alignment.
 *
 * @param name       binary name with dots, e.g. {@code dev.finegrain.generated.Nw_LockDataflow}
 * @param interfaces internal names of implemented interfaces
 * @param locals      the run method's local table; slots 0..2 are this, worker, workers
 * @param helpers     the private methods that {@link JStmt.CallHelper} statements call, in the order they are declared
 * @param fingerprint what the class was generated from (see {@link #FINGERPRINT_FIELD}), or empty before
 *                    {@code JvmCodegen} sets it
 * @param rows        the row layout the class expects of its storage, when its rows are aligned for lanes
 */
public record JClass(String name, List<String> interfaces, String javadoc, List<FieldBinding> fields,
                     List<JExpr.Local> locals, List<JStmt> run, List<Helper> helpers, String fingerprint,
                     Optional<RowAlignment> rows) {

    /**
     * A public static final String of every generated class: a digest of the kernel's IR, the plan and the lock
     * choices it was generated from, so that a class compiled ahead of time can be checked against the kernel it is
     * run for.
     */
    public static final String FINGERPRINT_FIELD = "FINEGRAIN_FINGERPRINT";

    /**
     * The public static final ints of a class that takes its rows' layout from its frame (the compiler's {@code
     * AlignedStorage}): the skew and the lanes the row pitches and the fields' fronts are chosen for. A class without
     * them takes dense rows.
     */
    public static final String ROW_SKEW_FIELD = "FINEGRAIN_ROW_SKEW";
    public static final String ROW_LANES_FIELD = "FINEGRAIN_ROW_LANES";
    /** The public static final int of a class whose storage is split into band blocks: the sync group its bands are whole multiples of. */
    public static final String ROW_BAND_GROUP_FIELD = "FINEGRAIN_ROW_BAND_GROUP";
    /** The public static final int of a class whose storage is split into blocks of a fixed width: that many columns. */
    public static final String ROW_BLOCK_COLUMNS_FIELD = "FINEGRAIN_ROW_BLOCK_COLUMNS";
    /** The public static final int (1) of a class whose storage lies along the hyperplanes (skew, 1), not in rows. */
    public static final String ROW_HYPERPLANES_FIELD = "FINEGRAIN_ROW_HYPERPLANES";
    /**
     * The public static final String of a class that keeps inputs in bytes ({@code Storage.BYTE}): their field ids,
     * comma-separated (the run narrows those arrays before it constructs the class). A class without it keeps none.
     */
    public static final String BYTE_FIELDS_FIELD = "FINEGRAIN_BYTE_FIELDS";

    /** The {@link #BYTE_FIELDS_FIELD} value of this class, or empty when it keeps no input in bytes. */
    public java.util.Optional<String> byteFields() {
        String ids = fields().stream().filter(f -> f.source() == Source.ARRAYS && f.type().equals(JType.BYTE_ARRAY))
                .map(f -> String.valueOf(f.index())).collect(java.util.stream.Collectors.joining(","));
        return ids.isEmpty() ? java.util.Optional.empty() : java.util.Optional.of(ids);
    }

    /**
     * Rows for strips of {@code lanes} lanes, lane r {@code skew * r} columns behind lane 0; pitch and front per field
     * from the frame. With {@code bandGroup} above 0 the columns are split into the workers' bands (whole multiples of
     * that many columns), each band's rows a block of their own, the block stride per field from the frame; with
     * {@code blockColumns} above 0 they are split into blocks of that many columns (a tile's width), whatever the team.
     * With {@code hyperplanes} there are no rows: each field lies along the hyperplanes (skew, 1), as the runtime's
     * {@code HyperplaneLayout} lays it, and the frame holds the sizes alone.
     */
    public record RowAlignment(int skew, int lanes, int bandGroup, int blockColumns, boolean hyperplanes) {
        public RowAlignment {
            if (bandGroup > 0 && blockColumns > 0) {
                throw new IllegalArgumentException("blocks are the workers' bands or of a fixed width, not both");
            }
            if (hyperplanes && (bandGroup > 0 || blockColumns > 0)) {
                throw new IllegalArgumentException("storage along hyperplanes has no blocks of columns");
            }
        }

        public RowAlignment(int skew, int lanes, int bandGroup, int blockColumns) {
            this(skew, lanes, bandGroup, blockColumns, false);
        }

        public RowAlignment(int skew, int lanes) {
            this(skew, lanes, 0, 0);
        }

        /** Storage along the hyperplanes (skew, 1) for vectors of {@code lanes} lanes. */
        public static RowAlignment alongHyperplanes(int skew, int lanes) {
            return new RowAlignment(skew, lanes, 0, 0, true);
        }

        /** Whether the storage depends on the team's size: the workers' bands are its blocks. */
        public boolean perTeam() {
            return bandGroup > 0;
        }
    }

    public JClass {
        interfaces = List.copyOf(interfaces);
        fields = List.copyOf(fields);
        locals = List.copyOf(locals);
        run = List.copyOf(run);
        helpers = List.copyOf(helpers);
    }

    /** A class whose fingerprint is set later, by the code generator's entry. */
    public JClass(String name, List<String> interfaces, String javadoc, List<FieldBinding> fields, List<JExpr.Local> locals,
                  List<JStmt> run, List<Helper> helpers, Optional<RowAlignment> rows) {
        this(name, interfaces, javadoc, fields, locals, run, helpers, "", rows);
    }

    public JClass withFingerprint(String digest) {
        return new JClass(name, interfaces, javadoc, fields, locals, run, helpers, digest, rows);
    }

    /**
     * A private method that runs part of {@code run} (see {@code LoweringContext.outline}): it takes, by value, the
     * run method's locals that its body reads before writing them, and has its own copies of the other locals the body
     * uses, so what the body writes to a local stays in the helper.
     *
     * @param why why the statements run in their own method: the helper's javadoc in the Java source
     */
    public record Helper(String name, String why, List<JExpr.Local> parameters, List<JExpr.Local> locals, List<JStmt> body) {
        public Helper {
            parameters = List.copyOf(parameters);
            locals = List.copyOf(locals);
            body = List.copyOf(body);
        }

        /** The JVM method descriptor: the parameters' types, returning void. */
        public String descriptor() {
            StringBuilder descriptor = new StringBuilder("(");
            parameters.forEach(parameter -> descriptor.append(parameter.type().descriptor()));
            return descriptor.append(")V").toString();
        }
    }

    /** Where the constructor takes a field's value from. */
    public enum Source { ARRAYS, INTEGRAL_PARAMS, REAL_PARAMS, SIZES, SYNC, WATCHDOG }

    /** A final field bound in the constructor from element {@code index} of {@code source}, cast or converted to its type. */
    public record FieldBinding(String name, JType type, Source source, int index) {}

    public String internalName() {
        return name.replace('.', '/');
    }

    public String simpleName() {
        return name.substring(name.lastIndexOf('.') + 1);
    }

    public String packageName() {
        return name.substring(0, name.lastIndexOf('.'));
    }
}
