package dev.finegrain.dsl;

import dev.finegrain.dsl.internal.SequenceDiagnostics;
import dev.finegrain.dsl.internal.SpecPrinter;
import dev.finegrain.dsl.internal.TypeRules;
import dev.finegrain.dsl.internal.Diagnostics;
import dev.finegrain.dsl.internal.DependenceMath;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * The whole-kernel rules of {@link Kernel.Builder#build()}, checked in an order where each rule may rely on the
 * earlier ones: names, then structure, then types, then what reads may reach, then dependences.
 */
final class KernelValidator {

    /** A dependence found while checking: consumer at p needs producer's value at p - vector. */
    private record Dependence(String producer, String consumer, int[] vector, String read, CallSite site) {}

    private final Kernel kernel;
    private final CallSite buildSite;
    private final List<Dependence> dependences = new ArrayList<>();
    /**
     * Per state field, how far its reads so far reach before ({@code [0]}) and after ({@code [1]}) the point along each
     * dimension: the halo its storage is padded by (the compiler's LowerSpecToGraph pads it by exactly this much).
     */
    private final Map<String, long[][]> reachOf = new HashMap<>();

    private KernelValidator(Kernel kernel, CallSite buildSite) {
        this.kernel = kernel;
        this.buildSite = buildSite;
    }

    static void validate(Kernel kernel, CallSite domainSite, CallSite buildSite) {
        new KernelValidator(kernel, buildSite).run(domainSite);
    }

    private void run(CallSite domainSite) {
        String name = kernel.name();
        if (kernel.domain().isEmpty()) {
            throw Diagnostics.noDomain(name, buildSite);
        }
        requireUnique("index", kernel.domain(), Dimension::index, d -> domainSite);
        requireUnique("size", kernel.domain(), Dimension::size, d -> domainSite);
        requireUnique("param", kernel.params(), ParamSpec::name, ParamSpec::site);
        requireUnique("field", kernel.fields(), FieldSpec::name, FieldSpec::site);
        requireUnique("actor", kernel.actors(), ActorSpec::name, ActorSpec::site);
        requireUnique("table", kernel.tables(), TableSpec::name, TableSpec::site);
        SequenceAndKeepRules.check(kernel);
        if (kernel.actors().isEmpty()) {
            throw Diagnostics.noActors(name, buildSite);
        }
        checkWriters();
        checkBoundaries();
        checkInputHalos();
        for (ActorSpec actor : kernel.actors()) {
            String where = Diagnostics.inActor(name, actor.name());
            FieldSpec written = kernel.field(actor.writes()).orElseThrow();
            Type bodyType = new TypeChecker(where, null).typeOf(actor.body());
            if (bodyType != written.type()) {
                throw Diagnostics.valueType(where, "body", written.type(), bodyType, actor.site());
            }
            collectReads(actor, actor.body());
        }
        checkExplicitChannels();
        checkOverrides();
        checkZeroDistanceCycles();
        checkWavefront();
    }

    private <T> void requireUnique(String kind, List<T> items, Function<T, String> nameOf, Function<T, CallSite> siteOf) {
        Map<String, T> seen = new HashMap<>();
        for (T item : items) {
            T first = seen.putIfAbsent(nameOf.apply(item), item);
            if (first != null) {
                throw Diagnostics.duplicateName(kernel.name(), kind, nameOf.apply(item), siteOf.apply(first), siteOf.apply(item));
            }
        }
    }

    private void checkWriters() {
        Map<String, ActorSpec> writerOf = new HashMap<>();
        for (ActorSpec actor : kernel.actors()) {
            FieldSpec field = kernel.field(actor.writes()).orElseThrow(() -> Diagnostics.unknownName(
                    Diagnostics.inActor(kernel.name(), actor.name()), "field", actor.writes(), fieldNames(), actor.site()));
            if (field.isInput()) {
                throw Diagnostics.actorWritesInput(kernel.name(), actor.name(), field.name(), actor.site());
            }
            ActorSpec first = writerOf.putIfAbsent(field.name(), actor);
            if (first != null) {
                throw Diagnostics.stateWrittenTwice(kernel.name(), field.name(), first.name(), actor.name(), actor.site());
            }
        }
        for (FieldSpec field : kernel.fields()) {
            if (field.isState() && !writerOf.containsKey(field.name())) {
                throw Diagnostics.stateNeverWritten(kernel.name(), field.name(), field.site());
            }
        }
    }

    private void checkBoundaries() {
        for (FieldSpec field : kernel.fields()) {
            switch (field.boundary()) {
                case Boundary.None none -> { }
                case Boundary.FromExpression(Expr value) -> {
                    String where = Diagnostics.inBoundary(kernel.name(), field.name());
                    Type type = new TypeChecker(where, field.name()).typeOf(value);
                    if (type != field.type()) {
                        throw Diagnostics.valueType(where, "boundary", field.type(), type, field.site());
                    }
                }
                case Boundary.FromInput(String inputName) -> {
                    FieldSpec input = kernel.field(inputName).filter(FieldSpec::isInput).orElseThrow(() ->
                            Diagnostics.unknownName(Diagnostics.inBoundary(kernel.name(), field.name()), "input",
                                    inputName, inputNames(), field.site()));
                    if (input.type() != field.type()) {
                        throw Diagnostics.boundaryInputType(kernel.name(), field.name(), inputName, field.type(), input.type(), field.site());
                    }
                }
            }
        }
    }

    /**
     * Every backend keeps a field in one int-indexed array over the domain padded by the field's halo, so a field's
     * padded extents at the smallest domain (size 1 in every dimension) must multiply to at most
     * {@link Integer#MAX_VALUE} cells; past that the kernel runs at no size, and saying so here beats a run-time
     * "choose smaller sizes" at every size. Larger domains may still be too large, which a run reports with its sizes.
     */
    private static long paddedCells(long[] extents) {
        long cells = 1;
        for (long extent : extents) {
            if (extent > Integer.MAX_VALUE || cells > Integer.MAX_VALUE / extent) {
                return Long.MAX_VALUE;
            }
            cells *= extent;
        }
        return cells;
    }

    /** An input is padded by its declared halo on every side of every dimension; see {@link #paddedCells}. */
    private void checkInputHalos() {
        int rank = kernel.rank();
        for (FieldSpec field : kernel.fields()) {
            if (!field.isInput()) {
                continue;
            }
            long[] extents = new long[rank];
            java.util.Arrays.fill(extents, 1 + 2L * field.halo());
            if (paddedCells(extents) > Integer.MAX_VALUE) {
                // the largest h with (1 + 2h)^rank <= Integer.MAX_VALUE
                long side = (long) Math.floor(Math.pow(Integer.MAX_VALUE, 1.0 / rank));
                while (paddedCells(filled(rank, side + 1)) <= Integer.MAX_VALUE) {
                    side++;
                }
                while (paddedCells(filled(rank, side)) > Integer.MAX_VALUE) {
                    side--;
                }
                throw Diagnostics.inputHaloTooLarge(kernel.name(), field.name(), field.halo(), extents,
                        (int) ((side - 1) / 2), field.site());
            }
        }
    }

    private static long[] filled(int rank, long extent) {
        long[] extents = new long[rank];
        java.util.Arrays.fill(extents, extent);
        return extents;
    }

    /** Widens a state field's padding by this read's reach, refusing the read that pads it past every size; see {@link #paddedCells}. */
    private void checkStateReach(String where, String text, FieldSpec field, Expr.Read read) {
        int rank = kernel.rank();
        long[][] reach = reachOf.computeIfAbsent(field.name(), name -> new long[2][rank]);
        long[] extents = new long[rank];
        for (int d = 0; d < rank; d++) {
            long offset = read.offset().get(d);
            reach[0][d] = Math.max(reach[0][d], -offset);
            reach[1][d] = Math.max(reach[1][d], offset);
            extents[d] = 1 + reach[0][d] + reach[1][d];
        }
        if (paddedCells(extents) > Integer.MAX_VALUE) {
            throw Diagnostics.readReachesTooFar(where, text, read.offsetArray(), field.name(), extents, read.site());
        }
    }

    /** Checks what each read may reach and records the dependences that reads of state fields create. */
    private void collectReads(ActorSpec actor, Expr expr) {
        switch (expr) {
            case Expr.Read read -> checkRead(actor, read);
            case Expr.Unary unary -> collectReads(actor, unary.operand());
            case Expr.Binary binary -> {
                collectReads(actor, binary.left());
                collectReads(actor, binary.right());
            }
            case Expr.Select select -> {
                collectReads(actor, select.condition());
                collectReads(actor, select.whenTrue());
                collectReads(actor, select.whenFalse());
            }
            case Expr.Cast cast -> collectReads(actor, cast.operand());
            case Expr.Lookup lookup -> lookup.indices().forEach(index -> collectReads(actor, index));
            case Expr.Iterate iterate -> {
                collectReads(actor, iterate.count());
                collectReads(actor, iterate.init());
                collectReads(actor, iterate.body());
            }
            case Expr.Constant c -> { }
            case Expr.Index index -> { }
            case Expr.Param param -> { }
            case Expr.Size size -> { }
            case Expr.Accumulator accumulator -> { }
        }
    }

    private void checkRead(ActorSpec actor, Expr.Read read) {
        String where = Diagnostics.inActor(kernel.name(), actor.name());
        FieldSpec field = kernel.field(read.field()).orElseThrow();
        String text = SpecPrinter.readOver(read.field(), read.offset(), field.spannedIndices(kernel.domain()));
        long reach = read.offset().stream().mapToLong(c -> Math.abs((long) c)).max().orElse(0);   // long: |Integer.MIN_VALUE|
        if (reach > 0 && field.isSequence()) {
            throw SequenceDiagnostics.sequenceReadOutside(where, text, field.name(), read.site());
        }
        if (reach > 0) {
            if (field.isInput() && reach > field.halo()) {
                throw Diagnostics.readBeyondHalo(where, text, field.name(), reach, field.halo(), read.site());
            }
            if (field.isState()) {
                switch (field.boundary()) {
                    case Boundary.None none -> throw Diagnostics.readNotCovered(where, text, field.name(), read.site());
                    case Boundary.FromInput(String inputName) -> {
                        int halo = kernel.field(inputName).orElseThrow().halo();
                        if (reach > halo) {
                            throw Diagnostics.readBeyondHalo(where, text, inputName, reach, halo, read.site());
                        }
                    }
                    case Boundary.FromExpression value -> { }
                }
            }
        }
        if (field.isState()) {
            checkStateReach(where, text, field, read);
            int[] vector = read.offset().stream().mapToInt(c -> -c).toArray();
            String producer = kernel.writerOf(field.name()).orElseThrow().name();
            dependences.add(new Dependence(producer, actor.name(), vector, text, read.site()));
        }
    }

    private void checkExplicitChannels() {
        for (ChannelSpec channel : kernel.channels()) {
            for (String actor : List.of(channel.producer(), channel.consumer())) {
                if (kernel.actor(actor).isEmpty()) {
                    throw Diagnostics.unknownName(Diagnostics.inKernel(kernel.name()), "actor", actor, actorNames(), channel.site());
                }
            }
            if (channel.distance().size() != kernel.rank()) {
                throw Diagnostics.channelRank(kernel.name(), channel.producer(), channel.consumer(),
                        channel.distance().size(), kernel.rank(), channel.site());
            }
            int[] vector = channel.distance().stream().mapToInt(Integer::intValue).toArray();
            String text = "channel " + channel.producer() + " -> " + channel.consumer();
            dependences.add(new Dependence(channel.producer(), channel.consumer(), vector, text, channel.site()));
        }
    }

    private void checkOverrides() {
        for (ChannelOverride override : kernel.channelOverrides()) {
            ActorSpec consumer = kernel.actor(override.consumer()).orElseThrow(() -> Diagnostics.unknownName(
                    Diagnostics.inKernel(kernel.name()), "actor", override.consumer(), actorNames(), override.site()));
            String read = SpecPrinter.read(override.field(), override.offset(), kernel.domain());
            boolean matches = dependences.stream().anyMatch(d -> d.consumer().equals(consumer.name()) && d.read().equals(read));
            if (!matches) {
                throw Diagnostics.overrideMatchesNoRead(kernel.name(), override);
            }
        }
    }

    private void checkZeroDistanceCycles() {
        Map<String, Set<String>> consumersAtSamePoint = new LinkedHashMap<>();
        for (Dependence dependence : dependences) {
            if (DependenceMath.isZero(dependence.vector())) {
                consumersAtSamePoint.computeIfAbsent(dependence.producer(), k -> new LinkedHashSet<>()).add(dependence.consumer());
            }
        }
        Set<String> finished = new LinkedHashSet<>();
        for (ActorSpec actor : kernel.actors()) {
            List<String> cycle = findCycle(actor.name(), consumersAtSamePoint, new ArrayList<>(), finished);
            if (cycle != null) {
                CallSite site = kernel.actor(cycle.getFirst()).orElseThrow().site();
                throw Diagnostics.zeroDistanceCycle(kernel.name(), cycle, site);
            }
        }
    }

    private static List<String> findCycle(String actor, Map<String, Set<String>> edges, List<String> path, Set<String> finished) {
        int onPath = path.indexOf(actor);
        if (onPath >= 0) {
            List<String> cycle = new ArrayList<>(path.subList(onPath, path.size()));
            cycle.add(actor);
            return cycle;
        }
        if (finished.contains(actor)) {
            return null;
        }
        path.add(actor);
        for (String next : edges.getOrDefault(actor, Set.of())) {
            List<String> cycle = findCycle(next, edges, path, finished);
            if (cycle != null) {
                return cycle;
            }
        }
        path.removeLast();
        finished.add(actor);
        return null;
    }

    private void checkWavefront() {
        Map<String, int[]> distinct = new LinkedHashMap<>();
        for (Dependence dependence : dependences) {
            if (!DependenceMath.isZero(dependence.vector())) {
                distinct.putIfAbsent(DependenceMath.format(dependence.vector()), dependence.vector());
            }
        }
        if (DependenceMath.findHyperplane(kernel.rank(), distinct.values()).isEmpty()) {
            throw Diagnostics.noWavefront(kernel.name(), distinct.values(), buildSite);
        }
        for (Dependence dependence : dependences) {
            if (!DependenceMath.isZero(dependence.vector()) && !DependenceMath.isLexicographicallyPositive(dependence.vector())) {
                throw Diagnostics.notLexicographic(Diagnostics.inActor(kernel.name(), dependence.consumer()),
                        dependence.read(), dependence.vector(), dependence.site());
            }
        }
    }

    private List<String> fieldNames() {
        return kernel.fields().stream().map(FieldSpec::name).toList();
    }

    private List<String> inputNames() {
        return kernel.fields().stream().filter(FieldSpec::isInput).map(FieldSpec::name).toList();
    }

    private List<String> actorNames() {
        return kernel.actors().stream().map(ActorSpec::name).toList();
    }

    /** Resolves names and computes types bottom-up; the first problem found is thrown. */
    private final class TypeChecker {
        private final String where;
        /** The field whose boundary is checked, or null in an actor body. */
        private final String boundaryOf;
        private final Map<Integer, Type> accumulators = new HashMap<>();

        TypeChecker(String where, String boundaryOf) {
            this.where = where;
            this.boundaryOf = boundaryOf;
        }

        Type typeOf(Expr expr) {
            return switch (expr) {
                case Expr.Constant c -> c.type();
                case Expr.Index index -> {
                    requireDeclared("index", index.name(), kernel.domain().stream().map(Dimension::index).toList(), index.site());
                    yield Type.INT;
                }
                case Expr.Size size -> {
                    requireDeclared("size", size.name(), kernel.domain().stream().map(Dimension::size).toList(), size.site());
                    yield Type.INT;
                }
                case Expr.Param param -> kernel.param(param.name()).map(ParamSpec::type).orElseThrow(() ->
                        Diagnostics.unknownName(where, "param", param.name(), kernel.params().stream().map(ParamSpec::name).toList(), param.site()));
                case Expr.Read read -> readType(read);
                case Expr.Lookup lookup -> lookupType(lookup);
                case Expr.Unary unary -> {
                    Type operand = typeOf(unary.operand());
                    yield TypeRules.unary(unary.operator(), operand).orElseThrow(() -> Diagnostics.operandType(where,
                            unary.operator().symbol(), operand, TypeRules.rule(unary.operator()), unary.site()));
                }
                case Expr.Binary binary -> {
                    Type left = typeOf(binary.left());
                    Type right = typeOf(binary.right());
                    yield TypeRules.binary(binary.operator(), left, right).orElseThrow(() -> Diagnostics.operandTypes(where,
                            binary.operator().symbol(), left, right, TypeRules.rule(binary.operator()), binary.site()));
                }
                case Expr.Select select -> {
                    Type condition = typeOf(select.condition());
                    if (condition != Type.BOOL) {
                        throw Diagnostics.conditionNotBool(where, condition, select.site());
                    }
                    Type whenTrue = typeOf(select.whenTrue());
                    Type whenFalse = typeOf(select.whenFalse());
                    if (whenTrue != whenFalse) {
                        throw Diagnostics.operandTypes(where, "select", whenTrue, whenFalse, "both branches need one type", select.site());
                    }
                    yield whenTrue;
                }
                case Expr.Cast cast -> {
                    Type operand = typeOf(cast.operand());
                    yield TypeRules.cast(cast.type(), operand).orElseThrow(() -> Diagnostics.operandType(where,
                            cast.type() + "(...)", operand, "casts convert only between int, long and double", cast.site()));
                }
                case Expr.Iterate iterate -> {
                    Type count = typeOf(iterate.count());
                    if (count != Type.INT) {
                        throw Diagnostics.iterateCountNotInt(where, count, iterate.site());
                    }
                    Type init = typeOf(iterate.init());
                    accumulators.put(iterate.accumulator().id(), init);
                    Type body = typeOf(iterate.body());
                    accumulators.remove(iterate.accumulator().id());
                    if (body != init) {
                        throw Diagnostics.valueType(where, "iterate body", init, body, iterate.site());
                    }
                    yield init;
                }
                case Expr.Accumulator accumulator -> {
                    Type type = accumulators.get(accumulator.id());
                    if (type == null) {
                        throw Diagnostics.accumulatorOutsideIterate(where, accumulator.site());
                    }
                    yield type;
                }
            };
        }

        private Type readType(Expr.Read read) {
            if (boundaryOf != null) {
                throw Diagnostics.boundaryReadsField(kernel.name(), boundaryOf, read.field(), read.site());
            }
            if (kernel.field(read.field()).isEmpty() && kernel.table(read.field()).isPresent()) {
                throw SequenceDiagnostics.readOfTable(where, read.field(), read.site());
            }
            FieldSpec field = kernel.field(read.field()).orElseThrow(() ->
                    Diagnostics.unknownName(where, "field", read.field(), fieldNames(), read.site()));
            if (field.isSequence() && read.offset().size() != field.along().size()) {
                throw SequenceDiagnostics.sequenceOffsetCount(where, SpecPrinter.readOver(read.field(), read.offset(), field.along()),
                        read.offset().size(), field.name(), field.along(), read.site());
            }
            if (!field.isSequence() && read.offset().size() != kernel.rank()) {
                throw Diagnostics.offsetRank(where, SpecPrinter.read(read.field(), read.offset(), kernel.domain()),
                        read.offset().size(), kernel.rank(), read.site());
            }
            return field.type();
        }

        private Type lookupType(Expr.Lookup lookup) {
            if (boundaryOf != null) {
                throw SequenceDiagnostics.boundaryLooksUp(kernel.name(), boundaryOf, lookup.table(), lookup.site());
            }
            if (kernel.table(lookup.table()).isEmpty() && kernel.field(lookup.table()).isPresent()) {
                throw SequenceDiagnostics.lookupOfField(where, lookup.table(), lookup.site());
            }
            TableSpec table = kernel.table(lookup.table()).orElseThrow(() -> Diagnostics.unknownName(where, "table", lookup.table(),
                    kernel.tables().stream().map(TableSpec::name).toList(), lookup.site()));
            if (lookup.indices().size() != table.extents().size()) {
                throw SequenceDiagnostics.lookupArity(where, table, lookup.indices().size(), lookup.site());
            }
            for (int axis = 0; axis < lookup.indices().size(); axis++) {
                Type indexType = typeOf(lookup.indices().get(axis));
                if (indexType != Type.INT) {
                    throw SequenceDiagnostics.lookupIndexType(where, table.name(), axis, indexType, lookup.site());
                }
            }
            return table.type();
        }

        private void requireDeclared(String kind, String name, List<String> known, CallSite site) {
            if (!known.contains(name)) {
                throw Diagnostics.unknownName(where, kind, name, known, site);
            }
        }
    }
}
