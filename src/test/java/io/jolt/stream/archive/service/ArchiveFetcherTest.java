package io.jolt.stream.archive.service;

import static org.assertj.core.api.Assertions.assertThat;

import io.jolt.stream.avro.ArchiveKind;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/** How the fetcher shares an answer's locations out among its consumers: one seek per fetch, in order, none split. */
class ArchiveFetcherTest {
    @Test
    void locationsOneFetchApartShareASeekAndTheRestSeekEach() {
        List<ArchiveLocation> locations = List.of(at(0, 10), at(0, 60), at(0, 10 + ArchiveFetcher.ONE_FETCH - 1), at(0, 10 + ArchiveFetcher.ONE_FETCH),
                at(1, 5), at(1, 7));

        assertThat(ArchiveFetcher.runs(locations)).containsExactly(
                List.of(at(0, 10), at(0, 60), at(0, 10 + ArchiveFetcher.ONE_FETCH - 1)),
                List.of(at(0, 10 + ArchiveFetcher.ONE_FETCH)),
                List.of(at(1, 5), at(1, 7)));
    }

    @Test
    void manyScatteredLocationsAreSharedOutInOrderAmongAtMostTheParallelRuns() {
        List<ArchiveLocation> scattered = LongStream.range(0, 40).mapToObj(i -> at(2, i * 10_000)).toList();

        List<List<ArchiveLocation>> runs = ArchiveFetcher.runs(scattered);

        assertThat(runs).hasSizeLessThanOrEqualTo(ArchiveFetcher.PARALLEL_RUNS).allSatisfy(run -> assertThat(run).hasSizeBetween(1, 3));
        List<ArchiveLocation> joined = new ArrayList<>();
        runs.forEach(joined::addAll);
        assertThat(joined).as("every location once, in archive order").isEqualTo(scattered);
    }

    @Test
    void oneLocationIsOneRun() {
        assertThat(ArchiveFetcher.runs(List.of(at(3, 42)))).containsExactly(List.of(at(3, 42)));
        assertThat(ArchiveFetcher.runs(List.of())).containsExactly(List.of());
    }

    private static ArchiveLocation at(int partition, long offset) {
        return new ArchiveLocation(partition, offset, 0, ArchiveKind.INSERT, "/p");
    }
}
