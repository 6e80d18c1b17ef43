package dev.finegrain.dsl;

import dev.finegrain.dsl.internal.SpecPrinter;
import dev.finegrain.dsl.internal.Diagnostics;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * An immutable kernel definition: a rectangular domain, params, input and state fields, actors (one
 * computation per point), explicit channels, and the lock choices (channel policy, granularity, default
 * mechanism). Create one with {@link Finegrain#kernel(String)}; {@link Builder#build()} checks every
 * whole-kernel rule and throws {@link KernelDefinitionException} with one precise message.
 */
public final class Kernel {

    private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z][A-Za-z0-9_]*");
    private static final Pattern KERNEL_NAME = Pattern.compile("[a-z][a-z0-9-]*");

    private final String name;
    private final CallSite site;
    private final List<Dimension> domain;
    private final CallSite domainSite;
    private final List<ParamSpec> params;
    private final List<FieldSpec> fields;
    private final List<TableSpec> tables;
    private final List<KeepSpec> keeps;
    private final List<ReductionSpec> reductions;
    private final List<ActorSpec> actors;
    private final List<ChannelSpec> channels;
    private final List<ChannelOverride> channelOverrides;
    private final ChannelPolicy channelPolicy;
    private final LockGranularity granularity;
    private final int groupSize;
    private final LockMechanism mechanism;

    private Kernel(Builder builder) {
        this.name = builder.name;
        this.site = builder.site;
        this.domain = List.copyOf(builder.domain);
        this.domainSite = builder.domainSite;
        this.params = List.copyOf(builder.params);
        this.fields = List.copyOf(builder.fields);
        this.tables = List.copyOf(builder.tables);
        this.keeps = List.copyOf(builder.keeps);
        this.reductions = List.copyOf(builder.reductions);
        this.actors = List.copyOf(builder.actors);
        this.channels = List.copyOf(builder.channels);
        this.channelOverrides = List.copyOf(builder.channelOverrides);
        this.channelPolicy = builder.channelPolicy;
        this.granularity = builder.granularity;
        this.groupSize = builder.groupSize;
        this.mechanism = builder.mechanism;
    }

    public String name() { return name; }

    /** Where the kernel was declared; run-time input errors point here. */
    public CallSite site() { return site; }

    public List<Dimension> domain() { return domain; }

    public int rank() { return domain.size(); }

    public List<ParamSpec> params() { return params; }

    public List<FieldSpec> fields() { return fields; }

    /** The lookup tables, in declaration order; their index is their number in the IR. */
    public List<TableSpec> tables() { return tables; }

    public List<ActorSpec> actors() { return actors; }

    /** What the kernel keeps of its state fields, where it keeps less than all ({@link Builder#keep}). */
    public List<KeepSpec> keeps() { return keeps; }

    /** What a run keeps of state field {@code field}: {@link Keep#ALL} unless the kernel says otherwise. */
    public Keep keep(String field) {
        return keeps.stream().filter(k -> k.field().equals(field)).map(KeepSpec::keep).findFirst().orElse(Keep.ALL);
    }

    /** The reductions a run gives beside the fields, in declaration order. */
    public List<ReductionSpec> reductions() { return reductions; }

    public List<ChannelSpec> channels() { return channels; }

    public List<ChannelOverride> channelOverrides() { return channelOverrides; }

    public ChannelPolicy channelPolicy() { return channelPolicy; }

    public LockGranularity granularity() { return granularity; }

    /** Actor instances per warp-shared lock group (used when granularity is WARP_SHARED). */
    public int groupSize() { return groupSize; }

    /** The default lock mechanism, if the kernel names one; a compile option may override it. */
    public Optional<LockMechanism> mechanism() { return Optional.ofNullable(mechanism); }

    public Optional<FieldSpec> field(String fieldName) {
        return fields.stream().filter(f -> f.name().equals(fieldName)).findFirst();
    }

    public Optional<TableSpec> table(String tableName) {
        return tables.stream().filter(t -> t.name().equals(tableName)).findFirst();
    }

    public Optional<ParamSpec> param(String paramName) {
        return params.stream().filter(p -> p.name().equals(paramName)).findFirst();
    }

    public Optional<ActorSpec> actor(String actorName) {
        return actors.stream().filter(a -> a.name().equals(actorName)).findFirst();
    }

    /** The actor that writes a state field. */
    public Optional<ActorSpec> writerOf(String fieldName) {
        return actors.stream().filter(a -> a.writes().equals(fieldName)).findFirst();
    }

    /** Starts a run-time invocation of this kernel: sizes, params and input arrays. */
    public Invocation.Builder invocation() {
        return new Invocation.Builder(this, CallSite.capture());
    }

    public Builder toBuilder() {
        return new Builder(this);
    }

    /** This kernel with the given actors and fields (the same ones, their trees retyped by {@link LiteralTyping}). */
    Kernel withTypedTrees(List<ActorSpec> typedActors, List<FieldSpec> typedFields) {
        Builder builder = new Builder(this);
        builder.actors.clear();
        builder.actors.addAll(typedActors);
        builder.fields.clear();
        builder.fields.addAll(typedFields);
        return new Kernel(builder);
    }

    @Override
    public String toString() {
        return SpecPrinter.print(this);
    }

    /**
     * Collects a kernel definition. Each method checks its own arguments at the call; {@link #build()} checks
     * the rules that need the whole kernel (names, types, coverage, dependences).
     */
    public static final class Builder {
        private final String name;
        private final CallSite site;
        private final List<Dimension> domain = new ArrayList<>();
        private CallSite domainSite = CallSite.UNKNOWN;
        private final List<ParamSpec> params = new ArrayList<>();
        private final List<FieldSpec> fields = new ArrayList<>();
        private final List<TableSpec> tables = new ArrayList<>();
        private final List<KeepSpec> keeps = new ArrayList<>();
        private final List<ReductionSpec> reductions = new ArrayList<>();
        private final List<ActorSpec> actors = new ArrayList<>();
        private final List<ChannelSpec> channels = new ArrayList<>();
        private final List<ChannelOverride> channelOverrides = new ArrayList<>();
        private ChannelPolicy channelPolicy = ChannelPolicy.SHARED;
        private LockGranularity granularity = LockGranularity.PER_THREAD;
        private int groupSize = 32;
        private LockMechanism mechanism;

        Builder(String name, CallSite site) {
            if (name == null || !KERNEL_NAME.matcher(name).matches()) {
                throw Diagnostics.invalidKernelName(String.valueOf(name), site);
            }
            this.name = name;
            this.site = site;
        }

        private Builder(Kernel kernel) {
            this.name = kernel.name;
            this.site = kernel.site;
            this.domain.addAll(kernel.domain);
            this.domainSite = kernel.domainSite;
            this.params.addAll(kernel.params);
            this.fields.addAll(kernel.fields);
            this.tables.addAll(kernel.tables);
            this.keeps.addAll(kernel.keeps);
            this.reductions.addAll(kernel.reductions);
            this.actors.addAll(kernel.actors);
            this.channels.addAll(kernel.channels);
            this.channelOverrides.addAll(kernel.channelOverrides);
            this.channelPolicy = kernel.channelPolicy;
            this.granularity = kernel.granularity;
            this.groupSize = kernel.groupSize;
            this.mechanism = kernel.mechanism;
        }

        /** The rectangular domain, one {@link Finegrain#dim} per dimension (1 to 3). */
        public Builder domain(Dimension... dimensions) {
            CallSite here = CallSite.capture();
            if (dimensions.length < 1 || dimensions.length > 3) {
                throw Diagnostics.badRank(name, dimensions.length, here);
            }
            for (Dimension dimension : dimensions) {
                requireIdentifier("index", dimension.index(), here);
                requireIdentifier("size", dimension.size(), here);
            }
            domain.clear();
            domain.addAll(List.of(dimensions));
            domainSite = here;
            return this;
        }

        public Builder param(String paramName, Type type) {
            CallSite here = CallSite.capture();
            requireIdentifier("param", paramName, here);
            params.add(new ParamSpec(paramName, Objects.requireNonNull(type, "type"), here));
            return this;
        }

        /** An input field, given at run time over the domain only. */
        public Builder input(String fieldName, Type type) {
            return addInput(fieldName, type, 0, Storage.NATURAL, CallSite.capture());
        }

        /** An input field given at run time over the domain padded by {@code halo} cells on every side. */
        public Builder input(String fieldName, Type type, int halo) {
            return addInput(fieldName, type, halo, Storage.NATURAL, CallSite.capture());
        }

        /**
         * An input field given at run time over the domain, whose values fit {@code storage}: {@link Storage#BYTE} for
         * an INT input whose values all lie in -128 to 127, which backends that stream it may keep in bytes.
         */
        public Builder input(String fieldName, Type type, Storage storage) {
            return addInput(fieldName, type, 0, storage, CallSite.capture());
        }

        /** An input field padded by {@code halo} cells on every side, whose values fit {@code storage}. */
        public Builder input(String fieldName, Type type, int halo, Storage storage) {
            return addInput(fieldName, type, halo, storage, CallSite.capture());
        }

        /**
         * A sequence input: given at run time along the dimensions {@code along} names alone (a residue per row with
         * {@code along("i")}), so it holds one value per point of those dimensions, not of the whole domain. A read of
         * it gives one offset per dimension it spans: {@code a.read("a", 0)}.
         */
        public Builder input(String fieldName, Type type, Along along) {
            return addSequence(fieldName, type, along, Storage.NATURAL, CallSite.capture());
        }

        /** A sequence input whose values fit {@code storage}. */
        public Builder input(String fieldName, Type type, Along along, Storage storage) {
            return addSequence(fieldName, type, along, storage, CallSite.capture());
        }

        private Builder addSequence(String fieldName, Type type, Along along, Storage storage, CallSite here) {
            if (Objects.requireNonNull(along, "along").indices().isEmpty()) {
                throw dev.finegrain.dsl.internal.SequenceDiagnostics.emptyAlong(name, fieldName, here);
            }
            return addInput(fieldName, type, 0, storage, along.indices(), here);
        }

        /**
         * A lookup table given at run time, {@code extents} long along each of its axes (1 to 3), row-major: a
         * substitution matrix {@code table("blosum62", INT, 24, 24)}, read by {@link Finegrain#lookup}.
         */
        public Builder table(String tableName, Type type, int... extents) {
            CallSite here = CallSite.capture();
            requireIdentifier("table", tableName, here);
            if (extents.length < 1 || extents.length > 3 || java.util.Arrays.stream(extents).anyMatch(e -> e < 1)
                    || java.util.Arrays.stream(extents).asLongStream().reduce(1, (a, b) -> Math.min(a * b, 1L << 40)) > 1 << 24) {
                throw dev.finegrain.dsl.internal.SequenceDiagnostics.badTableExtents(name, tableName, extents, here);
            }
            if (Objects.requireNonNull(type, "type") == Type.BOOL) {
                throw dev.finegrain.dsl.internal.SequenceDiagnostics.boolTable(name, tableName, here);
            }
            tables.add(new TableSpec(tableName, type,
                    java.util.Arrays.stream(extents).boxed().toList(), here));
            return this;
        }

        /**
         * Keeps only part of state field {@code field} in the result ({@link Keep}): its other values are computed and
         * read, but a backend need not store them all. Once per field.
         */
        public Builder keep(String field, Keep keep) {
            keeps.add(new KeepSpec(field, Objects.requireNonNull(keep, "keep"), CallSite.capture()));
            return this;
        }

        /** Gives {@code reduction} of state field {@code field} over the whole domain with the result: {@code max(h)}. */
        public Builder reduce(String field, Reduction reduction) {
            reductions.add(new ReductionSpec(field, Objects.requireNonNull(reduction, "reduction"), false, CallSite.capture()));
            return this;
        }

        /**
         * As {@link #reduce}, with the first point (in row-major order) where the extreme is reached: Smith-Waterman's
         * best score and where its alignment ends.
         */
        public Builder reduceWithPosition(String field, Reduction reduction) {
            reductions.add(new ReductionSpec(field, Objects.requireNonNull(reduction, "reduction"), true, CallSite.capture()));
            return this;
        }

        private Builder addInput(String fieldName, Type type, int halo, Storage storage, CallSite here) {
            return addInput(fieldName, type, halo, storage, List.of(), here);
        }

        private Builder addInput(String fieldName, Type type, int halo, Storage storage, List<String> along, CallSite here) {
            requireIdentifier("field", fieldName, here);
            if (halo < 0) {
                throw Diagnostics.badHalo(name, fieldName, halo, here);
            }
            if (Objects.requireNonNull(storage, "storage") == Storage.BYTE && type != Type.INT) {
                throw Diagnostics.byteStorageNotInt(name, fieldName, type, here);
            }
            fields.add(new FieldSpec(fieldName, Objects.requireNonNull(type, "type"), FieldSpec.Role.INPUT,
                    new Boundary.None(), halo, storage, along, here));
            return this;
        }

        /** A state field without a boundary: every read of it must stay inside the domain. */
        public Builder state(String fieldName, Type type) {
            return state(fieldName, type, new Boundary.None());
        }

        /** A state field whose halo is given by {@link Finegrain#boundary} or {@link Finegrain#boundaryFrom}. */
        public Builder state(String fieldName, Type type, Boundary boundary) {
            CallSite here = CallSite.capture();
            requireIdentifier("field", fieldName, here);
            fields.add(new FieldSpec(fieldName, Objects.requireNonNull(type, "type"), FieldSpec.Role.STATE,
                    Objects.requireNonNull(boundary, "boundary"), 0, Storage.NATURAL, List.of(), here));
            return this;
        }

        /**
         * An actor writing {@code field} at every point. The callback runs once, now, and returns the body's
         * expression tree.
         */
        public Builder actor(String actorName, String field, Function<ActorContext, Expr> body) {
            CallSite here = CallSite.capture();
            requireIdentifier("actor", actorName, here);
            if (body == null) {
                throw Diagnostics.nullActorBody(name, actorName, "no body callback was given", here);
            }
            Expr tree = body.apply(new ActorContext(actorName));
            if (tree == null) {
                throw Diagnostics.nullActorBody(name, actorName, "the body callback returned null", here);
            }
            actors.add(new ActorSpec(actorName, Objects.requireNonNull(field, "field"), tree, here));
            return this;
        }

        /** An ordering beyond the reads: {@code consumer} at p waits for {@code producer} at p - distance. */
        public Builder channel(String producer, String consumer, int... distance) {
            channels.add(new ChannelSpec(producer, consumer, Expr.offsetList(distance), null, CallSite.capture()));
            return this;
        }

        public Builder channel(String producer, String consumer, ChannelPolicy policy, int... distance) {
            channels.add(new ChannelSpec(producer, consumer, Expr.offsetList(distance),
                    Objects.requireNonNull(policy, "policy"), CallSite.capture()));
            return this;
        }

        /** The channel policy of every channel without an override (SHARED by default). */
        public Builder channelPolicy(ChannelPolicy policy) {
            channelPolicy = Objects.requireNonNull(policy, "policy");
            return this;
        }

        /** Overrides the policy of the channel derived from {@code consumer}'s read of {@code field} at {@code offset}. */
        public Builder channelPolicy(String consumer, String field, ChannelPolicy policy, int... offset) {
            channelOverrides.add(new ChannelOverride(consumer, field, Expr.offsetList(offset),
                    Objects.requireNonNull(policy, "policy"), CallSite.capture()));
            return this;
        }

        public Builder granularity(LockGranularity lockGranularity) {
            granularity = Objects.requireNonNull(lockGranularity, "granularity");
            return this;
        }

        /** WARP_SHARED with a group of {@code size} consecutive actor instances per sync word. */
        public Builder warpShared(int size) {
            if (size < 1) {
                throw Diagnostics.badGroupSize(name, size, CallSite.capture());
            }
            granularity = LockGranularity.WARP_SHARED;
            groupSize = size;
            return this;
        }

        /**
         * The lock mechanism a single run of lock-dataflow uses when neither the schedule
         * ({@link Schedule.LockDataflow#mechanism(LockMechanism)}) nor the caller names one; a comparison runs only
         * this mechanism unless asked for others.
         */
        public Builder mechanism(LockMechanism lockMechanism) {
            mechanism = Objects.requireNonNull(lockMechanism, "mechanism");
            return this;
        }

        /** Checks the whole kernel and returns the immutable spec. */
        public Kernel build() {
            CallSite here = CallSite.capture();
            Kernel kernel = LiteralTyping.apply(new Kernel(this));
            KernelValidator.validate(kernel, domainSite == CallSite.UNKNOWN ? here : domainSite, here);
            return kernel;
        }

        private void requireIdentifier(String kind, String identifier, CallSite here) {
            if (identifier == null || !IDENTIFIER.matcher(identifier).matches()) {
                throw Diagnostics.invalidName(name, kind, String.valueOf(identifier), here);
            }
        }
    }
}
