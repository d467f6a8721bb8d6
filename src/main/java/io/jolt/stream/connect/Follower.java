package io.jolt.stream.connect;

import io.jolt.stream.protocol.SignatureCheck;
import io.jolt.stream.protocol.sync.CursorSession;
import io.jolt.stream.protocol.sync.SyncPosition;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/** One followed pair inside a task: its session (the position verified so far) and when it is next due. */
final class Follower {
    final FollowedPair pair;
    final CursorSession session;
    private volatile Instant due;
    private volatile Instant lastSynced;
    private int failures;

    Follower(FollowedPair pair, SyncPosition position, Instant now, SignatureCheck signatures) {
        this.pair = pair;
        this.session = new CursorSession(pair.identity(), position, signatures);
        this.due = now;
        this.lastSynced = now;
    }

    Instant due() {
        return due;
    }

    boolean isDue(Instant now) {
        return !due.isAfter(now);
    }

    /** Caught up with the provider: next asked one poll interval from now. */
    void synced(Instant now, Duration interval) {
        failures = 0;
        lastSynced = now;
        due = now.plus(interval);
    }

    /** More to pull than one turn takes: due again at once, after the others had their turn. */
    void continueSoon(Instant now) {
        failures = 0;
        due = now;
    }

    /** The provider failed or refused: asked again after the backoff, or as late as it asked. Returns the wait. */
    Duration failed(Instant now, Backoff backoff, Optional<Duration> retryAfter) {
        failures++;
        Duration wait = backoff.after(failures, retryAfter);
        due = now.plus(wait);
        return wait;
    }

    /** How many times in a row the provider failed or refused. */
    int failures() {
        return failures;
    }

    /** The provider answered but nothing could be taken (a level refusal): asked again one interval later. */
    void refused(Instant now, Duration interval) {
        due = now.plus(interval);
    }

    boolean lagging(Instant now, Duration limit) {
        return Duration.between(lastSynced, now).compareTo(limit) > 0;
    }
}
