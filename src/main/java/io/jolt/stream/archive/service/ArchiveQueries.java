package io.jolt.stream.archive.service;

import io.jolt.stream.archive.replay.ArchivedHistory;

/** An identity's archived history: the locations from the index, the operations from the archive, each once. */
final class ArchiveQueries {
    private final ArchiveIndex index;
    private final ArchiveFetcher fetcher;

    ArchiveQueries(ArchiveIndex index, ArchiveFetcher fetcher) {
        this.index = index;
        this.fetcher = fetcher;
    }

    ArchivedHistory history(String identity, String path, Long untilOffset, Long untilTime) {
        if (!index.knows(identity)) {
            throw new ArchiveError(ArchiveError.Code.NOT_ARCHIVED, "nothing of " + identity + " is archived");
        }
        return ArchivedHistory.of(identity, fetcher.fetch(index.locations(identity, path, untilOffset, untilTime)), path);
    }
}
