package dev.finegrain.samples;

import dev.finegrain.dsl.KernelLibrary;
import dev.finegrain.dsl.LibraryKernel;

import java.util.List;

/** The sample kernels, in curriculum order; registered as a {@link KernelLibrary} service for the CLI. */
public final class SampleLibrary implements KernelLibrary {

    @Override
    public List<LibraryKernel> kernels() {
        return List.of(
                Sample01Chain.entry(),
                Sample02NeedlemanWunsch.entry(),
                Sample02NeedlemanWunsch.byteEntry(),
                Sample03SmithWaterman.entry(),
                Sample04LongestCommonSubsequence.entry(),
                Sample05EfficiencyLoop.entry(),
                Sample06GaussSeidel.entry(),
                Sample07Livermore5.entry(),
                Sample08Hotspots.entry(),
                Sample09SequenceAlignment.needlemanWunschEntry(),
                Sample09SequenceAlignment.smithWatermanEntry());
    }
}
