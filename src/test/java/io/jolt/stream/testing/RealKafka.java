package io.jolt.stream.testing;

import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * JUnit 5 extension: one real broker per test JVM, started on first use and stopped when the
 * JVM's tests end. Inject it as a {@link KafkaBroker} parameter. After each test it ends every
 * service process the test left running (a test that failed half-way): on the shared broker, a
 * service left behind would process the next test's input and write into its outputs.
 */
public final class RealKafka implements ParameterResolver, AfterEachCallback {
    @Override
    public void afterEach(ExtensionContext context) throws InterruptedException {
        int killed = ForkedService.killLeftovers();
        if (killed > 0) {
            System.out.printf("[real kafka] %s left %d service process(es) running: killed%n", context.getDisplayName(), killed);
        }
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == KafkaBroker.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        ExtensionContext.Store store = context.getRoot().getStore(ExtensionContext.Namespace.create(RealKafka.class));
        return store.getOrComputeIfAbsent("broker", k -> new Holder(), Holder.class).broker;
    }

    /** Closed by JUnit with the root context. */
    static final class Holder implements ExtensionContext.Store.CloseableResource, AutoCloseable {
        final KafkaBroker broker;

        Holder() {
            try {
                broker = KafkaBroker.start();
            } catch (Exception e) {
                throw new IllegalStateException("cannot start the test Kafka broker", e);
            }
        }

        @Override
        public void close() {
            broker.close();
        }
    }
}
