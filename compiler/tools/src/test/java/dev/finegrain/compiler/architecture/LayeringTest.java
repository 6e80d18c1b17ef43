package dev.finegrain.compiler.architecture;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

/**
 * The layering, as a test: a back arrow fails the build. From the bottom up: the DSL and the runtimes; the core
 * compiler (IR, passes, plans, the backend contract, the reference and JVM backends, the one resolver, the Java API);
 * the GPU targets (the one GPU mapping, the machine abstraction, the mechanisms' facts, the model-ISA and CUDA
 * emitters); the tools (CLI, sweeps, formats and report, validate, export). The Maven modules repeat the cut
 * (finegrain-core, finegrain-gpu, finegrain-tools), so a user's project on the JVM backend pulls in the core alone.
 */
class LayeringTest {

    private static final String COMPILER = "dev.finegrain.compiler";
    private static final JavaClasses CLASSES = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            // the core's test jar (its test kernels, on this module's test class path) is test code too
            .withImportOption(location -> !location.contains("-tests.jar"))
            .importPackages("dev.finegrain");

    @Test
    void layersPointOneWay() {
        ArchRule layers = layeredArchitecture().consideringOnlyDependenciesInLayers()
                .layer("DSL").definedBy("dev.finegrain.dsl..")
                .layer("JVM runtime").definedBy("dev.finegrain.runtime..")
                .layer("GPU model runtime").definedBy("dev.finegrain.gpu..")
                .layer("IR").definedBy(COMPILER + ".ir..", COMPILER + ".json..")
                .layer("Passes").definedBy(COMPILER + ".pass..")
                .layer("Plans").definedBy(COMPILER + ".plan..")
                .layer("Backend contract").definedBy(COMPILER + ".backend")
                .layer("Reference backend").definedBy(COMPILER + ".backend.reference..")
                .layer("JVM backend").definedBy(COMPILER + ".backend.jvm..")
                .layer("Resolver").definedBy(COMPILER + ".resolve..")
                .layer("Java API").definedBy(COMPILER + ".api..")
                .layer("GPU targets").definedBy(COMPILER + ".backend.gpu..")
                .layer("Tools").definedBy(COMPILER + ".cli..", COMPILER + ".compare..", COMPILER + ".validate..",
                        COMPILER + ".export..")
                .whereLayer("Tools").mayNotBeAccessedByAnyLayer()
                .whereLayer("GPU targets").mayOnlyBeAccessedByLayers("Tools")
                .whereLayer("GPU model runtime").mayOnlyBeAccessedByLayers("GPU targets", "Tools")
                .whereLayer("Java API").mayOnlyBeAccessedByLayers("Tools")
                .whereLayer("Resolver").mayOnlyBeAccessedByLayers("Java API", "Tools")
                .whereLayer("JVM backend").mayOnlyBeAccessedByLayers("Java API", "Tools")
                .whereLayer("Reference backend").mayOnlyBeAccessedByLayers("JVM backend", "Java API", "GPU targets", "Tools")
                .whereLayer("Backend contract").mayOnlyBeAccessedByLayers("Reference backend", "JVM backend", "Resolver",
                        "Java API", "GPU targets", "Tools")
                .whereLayer("Plans").mayOnlyBeAccessedByLayers("Backend contract", "Reference backend", "JVM backend",
                        "Resolver", "Java API", "GPU targets", "Tools")
                .whereLayer("Passes").mayOnlyBeAccessedByLayers("Plans", "Backend contract", "Reference backend",
                        "JVM backend", "Resolver", "Java API", "GPU targets", "Tools")
                .whereLayer("JVM runtime").mayNotAccessAnyLayer()
                .whereLayer("DSL").mayNotAccessAnyLayer();
        layers.check(CLASSES);
    }

    /**
     * Inside the JVM backend, decisions sit below their spelling: the token forms (one class per lock mechanism: its
     * runtime words and its await and publish calls) know only the code model; the layouts (where storage and sync words live, how
     * wide a vector is) know nothing of lowering; the lowering context (fields, actors, rows) uses the layouts; the
     * lane forms (vectors, strips, row scans, the tile form chosen) use the context; the schedules' loops choose among
     * the lane forms; the backend's entry classes put a class together. The Java and bytecode emitters see only
     * their own code model.
     */
    @Test
    void jvmBackendDecidesBelowItsSpelling() {
        String jvm = COMPILER + ".backend.jvm";
        layeredArchitecture().consideringOnlyDependenciesInLayers()
                .layer("Code model and emitters").definedBy(jvm + ".code..")
                .layer("Token forms").definedBy(jvm + ".tokens..")
                .layer("Layouts").definedBy(jvm + ".layout..")
                .layer("Lowering context").definedBy(jvm + ".lowering..")
                .layer("Lane forms").definedBy(jvm + ".lanes..")
                .layer("Schedule loops").definedBy(jvm + ".loops..")
                .layer("Entry").definedBy(jvm)
                .whereLayer("Entry").mayNotBeAccessedByAnyLayer()
                .whereLayer("Schedule loops").mayOnlyBeAccessedByLayers("Entry")
                .whereLayer("Lane forms").mayOnlyBeAccessedByLayers("Schedule loops", "Entry")
                .whereLayer("Lowering context").mayOnlyBeAccessedByLayers("Lane forms", "Schedule loops", "Entry")
                .whereLayer("Layouts").mayOnlyBeAccessedByLayers("Lowering context", "Lane forms", "Schedule loops", "Entry")
                .whereLayer("Token forms").mayOnlyBeAccessedByLayers("Layouts", "Lowering context", "Lane forms",
                        "Schedule loops", "Entry")
                .whereLayer("Code model and emitters").mayNotAccessAnyLayer()
                .check(CLASSES);
    }

    @Test
    void noPackageCycles() {
        slices().matching(COMPILER + ".(**)").should().beFreeOfCycles().check(CLASSES);
    }

    /**
     * Lock choices ride on the plan: only the plan decides them (LockChoices), only the passes read the kernel's
     * declared policies into the IR, and only the IR's printer shows what the kernel declares; everything else reads
     * them from the plan, never back from the kernel.
     */
    @Test
    void lockChoicesAreReadFromThePlanNotTheKernel() {
        noClasses().that().resideInAPackage(COMPILER + "..")
                .and().resideOutsideOfPackages(COMPILER + ".plan..", COMPILER + ".pass..", COMPILER + ".ir..")
                .should().callMethod(dev.finegrain.dsl.Kernel.class, "granularity")
                .orShould().callMethod(dev.finegrain.dsl.Kernel.class, "groupSize")
                .orShould().callMethod(dev.finegrain.dsl.Kernel.class, "channelPolicy")
                .orShould().callMethod(dev.finegrain.dsl.Kernel.class, "mechanism")
                .because("the plan's LockChoices decide them once, the schedule's choices included")
                .check(CLASSES);
    }

    /**
     * One road: nothing outside the resolver compiles a kernel or plans a schedule for a variant on its own (the pass
     * trace of {@code show --passes} runs the pipeline itself, as a view of the passes).
     */
    @Test
    void onlyTheResolverCompilesAndPlans() {
        noClasses().that().resideOutsideOfPackages(COMPILER + ".resolve..", COMPILER + ".plan..", COMPILER + ".pass..")
                .should().callMethodWhere(com.tngtech.archunit.base.DescribedPredicate.describe("a planner or the pass"
                        + " pipeline's compile", call -> {
                            String owner = call.getTargetOwner().getName();
                            String method = call.getName();
                            return owner.equals(dev.finegrain.compiler.plan.SchedulePlanner.class.getName())
                                    || owner.startsWith(COMPILER + ".plan.Plan") && method.equals("plan")
                                    || owner.equals(dev.finegrain.compiler.pass.Pipeline.class.getName()) && method.equals("compile");
                        }))
                .because("VariantResolver is the one road from a request to a variant")
                .check(CLASSES);
    }
}
