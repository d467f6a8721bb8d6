package io.jolt.stream.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.apache.kafka.streams.state.HostInfo;
import org.junit.jupiter.api.Test;

/** A request marked forwarded is trusted as a peer's only when the mark names a member and it comes from that member's host. */
class OwnerRoutingTest {
    static final List<HostInfo> MEMBERS = List.of(new HostInfo("10.0.0.2", 8080), new HostInfo("localhost", 8081));

    @Test
    void aMemberForwardingFromItsOwnAddressIsAPeer() {
        assertThat(OwnerRouting.isPeer("10.0.0.2:8080", "10.0.0.2", MEMBERS)).isTrue();
        assertThat(OwnerRouting.isPeer("localhost:8081", "127.0.0.1", MEMBERS)).as("a host name, resolved").isTrue();
    }

    @Test
    void aClientThatWritesTheMarkIsNoPeer() {
        assertThat(OwnerRouting.isPeer("10.0.0.2:8080", "10.0.0.9", MEMBERS)).as("a member's mark from another address").isFalse();
        assertThat(OwnerRouting.isPeer("10.0.0.9:8080", "10.0.0.9", MEMBERS)).as("a mark naming no member").isFalse();
        assertThat(OwnerRouting.isPeer("10.0.0.2:9999", "10.0.0.2", MEMBERS)).as("a member's host, another port").isFalse();
        assertThat(OwnerRouting.isPeer("failover-it", "127.0.0.1", MEMBERS)).isFalse();
    }
}
