package dev.finegrain.compiler.cli;

import dev.finegrain.compiler.backend.Backend;
import dev.finegrain.compiler.compare.Backends;
import dev.finegrain.compiler.compare.SweepAxes;
import dev.finegrain.compiler.compare.UsageException;
import dev.finegrain.dsl.ChannelPolicy;
import dev.finegrain.dsl.Kernel;
import dev.finegrain.dsl.LockGranularity;
import dev.finegrain.dsl.Mutex;
import dev.finegrain.dsl.ParamSpec;
import dev.finegrain.dsl.Type;
import dev.finegrain.dsl.WaitPolicy;
import picocli.CommandLine.Option;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The axes {@code compare} (and the commands built on its sweep) vary beyond sizes, schedules, backends and
 * mechanisms: params, granularities, channel policies and model profile keys. Each takes a list; the sweep takes the
 * product, and each row names its values.
 */
final class AxisOptions {

    @Option(names = "--params", paramLabel = "NAME=V,...", description = "sweep a param of the kernel over these values,"
            + " e.g. --params work=1,4,16,64 (repeat the option for several params; the sweep takes their product)")
    List<String> params = new ArrayList<>();

    @Option(names = "--granularity", paramLabel = "G,...", description = "lock granularities for lock-dataflow:"
            + " per-thread, warp-shared:N (one token per N consecutive instances), e.g. per-thread,warp-shared:8,warp-shared:32")
    String granularities;

    @Option(names = "--channels", paramLabel = "P,...", description = "channel policies for lock-dataflow: shared, private")
    String channels;

    @Option(names = "--wait-policy", paramLabel = "W,...", description = "how lock-dataflow's token waits pass the time:"
            + " adaptive (spin, yield, sleep; the default), spin, backoff (exponential), sleep; the jvm backend runs them all")
    String waitPolicies;

    @Option(names = "--mutex", paramLabel = "M,...", description = "how lock-dataflow's spin-locks take their lock: ttas"
            + " (test-and-test-and-set; the jvm's default), tas (test-and-set; the GPU targets' default), ticket"
            + " (fetch-and-add); every backend runs them all")
    String mutexes;

    @Option(names = "--profile-set", paramLabel = "KEY=V,...", description = "run each gpu-model backend with a profile key"
            + " set to each value, e.g. --profile-set sm.lockBits=512,1024,4096 (repeat for several keys: their product);"
            + " one backend gpu-model:PROFILE@KEY=V per value")
    List<String> profileSettings = new ArrayList<>();

    /** The axes asked for, the thread counts given beside them. */
    SweepAxes axes(Kernel kernel, List<Integer> threads) {
        return new SweepAxes(params(kernel), threads, granularities(), channelPolicies(), waitPolicies(), mutexes());
    }

    /** The backends with each gpu-model one repeated for every point of the profile settings asked for. */
    List<Backend> withProfileSettings(List<Backend> backends) {
        if (profileSettings.isEmpty()) {
            return backends;
        }
        if (backends.stream().noneMatch(b -> b.name().startsWith(Backends.GPU_MODEL_PREFIX))) {
            throw new UsageException("--profile-set varies a gpu-model profile, and no gpu-model backend is asked for; add"
                    + " e.g. --backends gpu-model:fermi-gtx570");
        }
        List<String> suffixes = List.of("");
        for (String setting : profileSettings) {
            int equals = setting.indexOf('=');
            if (equals <= 0 || equals == setting.length() - 1) {
                throw new UsageException("--profile-set '" + setting + "' is not KEY=V,...; write e.g. --profile-set sm.lockBits=512,4096");
            }
            String key = setting.substring(0, equals).trim();
            List<String> values = list(setting.substring(equals + 1), "--profile-set " + key);
            List<String> next = new ArrayList<>();
            suffixes.forEach(suffix -> values.forEach(value -> next.add(suffix + "@" + key + "=" + value)));
            suffixes = next;
        }
        List<Backend> out = new ArrayList<>();
        for (Backend backend : backends) {
            if (!backend.name().startsWith(Backends.GPU_MODEL_PREFIX)) {
                out.add(backend);
                continue;
            }
            for (String suffix : suffixes) {
                out.add(CliValues.backend(backend.name() + suffix));
            }
        }
        return out;
    }

    private Map<String, List<Object>> params(Kernel kernel) {
        Map<String, List<Object>> swept = new LinkedHashMap<>();
        for (String given : params) {
            int equals = given.indexOf('=');
            if (equals <= 0) {
                throw new UsageException("--params '" + given + "' is not NAME=V,...; write e.g. --params work=1,4,16");
            }
            String name = given.substring(0, equals).trim();
            ParamSpec param = kernel.params().stream().filter(p -> p.name().equals(name)).findFirst()
                    .orElseThrow(() -> new UsageException("kernel '" + kernel.name() + "' has no param '" + name + "'"
                            + (kernel.params().isEmpty() ? "; it takes none" : "; its params: "
                            + kernel.params().stream().map(ParamSpec::name).collect(Collectors.joining(", ")))));
            if (swept.containsKey(name)) {
                throw new UsageException("--params names '" + name + "' twice; give all its values in one list");
            }
            if (name.equals("threads") || name.equals("wait") || name.equals("mutex")) {
                throw new UsageException("--params cannot sweep a param named '" + name + "': rows name the " + name
                        + " axis so; rename the param");
            }
            List<Object> values = list(given.substring(equals + 1), "--params " + name).stream()
                    .map(value -> value(param, value)).toList();
            if (values.stream().distinct().count() < values.size()) {
                throw new UsageException("--params " + name + " repeats a value (" + given.substring(equals + 1) + "); give each once");
            }
            swept.put(name, values);
        }
        return swept;
    }

    private static Object value(ParamSpec param, String text) {
        Type type = param.type();
        try {
            return SweepAxes.paramValue(param, text);
        } catch (NumberFormatException notOfType) {
            throw new UsageException("--params " + param.name() + ": '" + text + "' is not " + switch (type) {
                case INT -> "an int";
                case LONG -> "a long";
                case DOUBLE -> "a number";
                case BOOL -> "true or false";
            } + ", which param '" + param.name() + "' is declared as");
        }
    }

    private List<SweepAxes.Granularity> granularities() {
        if (granularities == null) {
            return List.of();
        }
        return list(granularities, "--granularity").stream().map(AxisOptions::granularity).toList();
    }

    private static SweepAxes.Granularity granularity(String text) {
        if (text.equals(LockGranularity.PER_THREAD.cliName())) {
            return new SweepAxes.Granularity(LockGranularity.PER_THREAD, 1);
        }
        String warp = LockGranularity.WARP_SHARED.cliName();
        if (text.equals(warp)) {
            return new SweepAxes.Granularity(LockGranularity.WARP_SHARED, 32);
        }
        if (text.startsWith(warp + ":")) {
            try {
                int group = Integer.parseInt(text.substring(warp.length() + 1));
                if (group >= 1 && group <= 1024) {
                    return new SweepAxes.Granularity(LockGranularity.WARP_SHARED, group);
                }
            } catch (NumberFormatException notANumber) {
                // said below
            }
        }
        throw new UsageException("--granularity '" + text + "' is not a granularity; use per-thread, warp-shared (a warp of"
                + " 32) or warp-shared:N with N from 1 to 1024");
    }

    private List<ChannelPolicy> channelPolicies() {
        if (channels == null) {
            return List.of();
        }
        return list(channels, "--channels").stream().map(text -> Arrays.stream(ChannelPolicy.values())
                .filter(p -> p.cliName().equals(text)).findFirst()
                .orElseThrow(() -> new UsageException("--channels '" + text + "' is not a channel policy; use "
                        + Arrays.stream(ChannelPolicy.values()).map(ChannelPolicy::cliName).collect(Collectors.joining(" or ")))))
                .toList();
    }

    private List<WaitPolicy> waitPolicies() {
        if (waitPolicies == null) {
            return List.of();
        }
        return list(waitPolicies, "--wait-policy").stream().map(text -> WaitPolicy.fromCliName(text)
                .orElseThrow(() -> new UsageException("--wait-policy '" + text + "' is not a wait policy; use "
                        + Arrays.stream(WaitPolicy.values()).map(WaitPolicy::cliName).collect(Collectors.joining(", ")))))
                .toList();
    }

    private List<Mutex> mutexes() {
        if (mutexes == null) {
            return List.of();
        }
        return list(mutexes, "--mutex").stream().map(text -> Mutex.fromCliName(text)
                .orElseThrow(() -> new UsageException("--mutex '" + text + "' is not a mutex; use "
                        + Arrays.stream(Mutex.values()).map(Mutex::cliName).collect(Collectors.joining(", ")))))
                .toList();
    }

    /** A comma-separated list, each entry trimmed, none empty, none repeated. */
    static List<String> list(String text, String option) {
        List<String> entries = Arrays.stream(text.split(",", -1)).map(String::trim).toList();
        if (entries.stream().anyMatch(String::isEmpty)) {
            throw new UsageException(option + " '" + text + "' has an empty entry; separate values with single commas");
        }
        if (entries.stream().distinct().count() < entries.size()) {
            throw new UsageException(option + " '" + text + "' repeats a value; give each once");
        }
        return entries;
    }
}
