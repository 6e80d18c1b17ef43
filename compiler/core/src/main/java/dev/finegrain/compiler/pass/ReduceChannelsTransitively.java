package dev.finegrain.compiler.pass;

import dev.finegrain.compiler.ir.IrChannel;
import dev.finegrain.compiler.ir.KernelGraph;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.IntStream;

/**
 * Marks each channel that a chain of two or more other, unimplied channels already orders, walking only inside
 * the box between its endpoints (so the chain exists wherever the channel does in a rectangular domain); the
 * data read stays, the sync goes. NW's north-west channel (1,1) is implied by north (1,0) then west (0,1). A channel
 * that repeats an unimplied one (the same producer, consumer, vector and policy: an explicit channel beside the one a
 * read derives, two reads of one field at one offset) is implied by it, so no consumer ever waits twice for one token
 * (on a GPU, twice on one lock bit it already holds).
 */
public final class ReduceChannelsTransitively implements Pass {

    @Override
    public String name() {
        return "reduce-channels";
    }

    @Override
    public String contract() {
        return "Marks each channel that a chain of two or more unimplied channels inside its box already orders, or that"
                + " repeats an unimplied one; needs channels.";
    }

    @Override
    public KernelGraph apply(KernelGraph graph) {
        List<IrChannel> channels = new ArrayList<>(graph.channels());
        List<Integer> byLength = IntStream.range(0, channels.size()).boxed()
                .sorted(Comparator.comparingInt(c -> l1(channels.get(c).vector()))).toList();
        List<Integer> settled = new ArrayList<>();
        for (int candidate : byLength) {
            IrChannel channel = channels.get(candidate);
            java.util.Optional<Integer> twin = settled.stream().filter(s -> repeats(channel, channels.get(s))).findFirst();
            if (twin.isPresent()) {
                channels.set(candidate, channel.withImpliedBy(List.of(twin.get())));
                continue;
            }
            List<Integer> chain = findChain(channels, settled, channel, channel.producer(), channel.vector(), new ArrayList<>());
            if (chain != null) {
                channels.set(candidate, channel.withImpliedBy(chain));
            } else {
                settled.add(candidate);
            }
        }
        return graph.withChannels(channels);
    }

    /** Depth-first search for a chain of settled channels from {@code at} covering exactly {@code remaining}. */
    private static List<Integer> findChain(List<IrChannel> channels, List<Integer> settled, IrChannel target,
                                           int at, int[] remaining, List<Integer> path) {
        if (isZero(remaining) && at == target.consumer() && path.size() >= 2) {
            return List.copyOf(path);
        }
        if (path.size() > l1(target.vector()) + channels.size()) {
            return null;
        }
        for (int link : settled) {
            IrChannel step = channels.get(link);
            if (step.producer() != at || path.contains(link) && isZero(step.vector()) || !fitsInside(step.vector(), remaining)) {
                continue;
            }
            path.add(link);
            List<Integer> found = findChain(channels, settled, target, step.consumer(), minus(remaining, step.vector()), path);
            path.removeLast();
            if (found != null) {
                return found;
            }
        }
        return null;
    }

    /** Whether {@code channel} orders exactly what {@code other} orders, through a token of the same policy. */
    private static boolean repeats(IrChannel channel, IrChannel other) {
        return channel.producer() == other.producer() && channel.consumer() == other.consumer()
                && java.util.Arrays.equals(channel.vector(), other.vector()) && channel.policy() == other.policy();
    }

    /** Each component has the remaining vector's sign and no larger magnitude. */
    private static boolean fitsInside(int[] step, int[] remaining) {
        for (int d = 0; d < step.length; d++) {
            if (step[d] != 0 && (Integer.signum(step[d]) != Integer.signum(remaining[d]) || Math.abs(step[d]) > Math.abs(remaining[d]))) {
                return false;
            }
        }
        return true;
    }

    private static int[] minus(int[] a, int[] b) {
        int[] result = new int[a.length];
        for (int d = 0; d < a.length; d++) {
            result[d] = a[d] - b[d];
        }
        return result;
    }

    private static boolean isZero(int[] vector) {
        return l1(vector) == 0;
    }

    private static int l1(int[] vector) {
        int sum = 0;
        for (int c : vector) {
            sum += Math.abs(c);
        }
        return sum;
    }
}
