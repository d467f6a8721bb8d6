package io.jolt.stream.archive.service;

import io.jolt.stream.archive.replay.ArchivedHistory;
import java.util.List;

/** An identity's archived history: the locations from the index, the operations from the archive, each once. */
final class ArchiveQueries {
    private final ArchiveIndex index;
    private final ArchiveFetcher fetcher;

    ArchiveQueries(ArchiveIndex index, ArchiveFetcher fetcher) {
        this.index = index;
        this.fetcher = fetcher;
    }

    ArchivedHistory history(String identity, String path, Long untilOffset, Long untilTime) {
        List<ArchiveLocation> locations = index.locations(identity, path, untilOffset, untilTime);
        // Only an empty answer needs a second look: nothing within the bounds, or nothing at all.
        if (locations.isEmpty() && !index.knows(identity)) {
            throw new ArchiveError(ArchiveError.Code.NOT_ARCHIVED, "nothing of " + identity + " is archived");
        }
        return ArchivedHistory.of(identity, fetcher.fetch(locations), path);
    }
}
