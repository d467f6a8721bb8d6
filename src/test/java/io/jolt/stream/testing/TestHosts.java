package io.jolt.stream.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Hosts of a multi-host test on this one machine: each host a Linux network namespace with an
 * address of its own on a private /24, joined to the others by a bridge in the root namespace.
 * The bridge holds {@code .1}, the client host: the test JVM, which reaches every host through it.
 * Faults act on one host: {@link #cut} takes its link down (no one reaches it, the client
 * included); {@link #isolate} drops, inside its namespace, all traffic to and from the other
 * hosts but the client (an asymmetric partition: it answers HTTP while it has lost its brokers
 * and peers); {@link #pause} stops a process with SIGSTOP, as a long GC or a frozen VM would.
 *
 * <p>Everything it creates is named {@code jh-<pid>-...} (the JVM's pid in base 36; interface names
 * stay within Linux's 15 characters), so that teardown finds all of it by name, and a later
 * run removes what a JVM that died before its teardown left. One instance per JVM at a time.
 * Needs root, {@code ip} and {@code iptables} ({@link #requireCapable}); tears down in
 * {@link #close} and, should the JVM end first, in a shutdown hook.
 */
public final class TestHosts implements AutoCloseable {
    private static final String PREFIX = "jh-";
    /** The run's part of a name: the prefix and its owner's pid. */
    private static final Pattern RUN = Pattern.compile("jh-[0-9a-z]{1,13}-");
    private static final String INSTALL_IPTABLES = "install iptables (apt-get install iptables); ./jolt test installs it";
    private static TestHosts open;

    /** A host: its name in the test, its network namespace, its address. */
    public record Host(String name, String namespace, String address) {}

    private final Path ip;
    private final Path iptables;
    private final String run;
    private final String subnet;
    private final String bridge;
    private final Map<Host, String> links = new HashMap<>();
    private final Thread teardown;

    private TestHosts(Path ip, Path iptables, String run, String subnet) {
        this.ip = ip;
        this.iptables = iptables;
        this.run = run;
        this.subnet = subnet;
        this.bridge = run + "br";
        this.teardown = new Thread(() -> remove(ip, run), "test-hosts-teardown");
    }

    /**
     * Fails, never skips, where multi-host tests cannot run: they are part of the suite, and a
     * machine that cannot run them should say so rather than pass without them.
     */
    public static void requireCapable() throws IOException {
        tools();
    }

    /** The tools the hosts are made with, once it is known that they can be. */
    private record Tools(Path ip, Path iptables) {}

    private static Tools tools() throws IOException {
        Object uid = Files.getAttribute(Path.of("/proc/self"), "unix:uid");
        if (!Integer.valueOf(0).equals(uid)) {
            throw new IllegalStateException("multi-host tests need root (network namespaces, veth pairs, a bridge, iptables); uid is " + uid);
        }
        return new Tools(Executables.require("jolt.ip", List.of("ip"), "install iproute2 (apt-get install iproute2)"),
                Executables.require("jolt.iptables", List.of("iptables"), INSTALL_IPTABLES));
    }

    /** The bridge, on a /24 of 10.213.0.0/16 that no route of this machine uses, after removing what dead runs left. */
    public static synchronized TestHosts create() throws IOException {
        Tools tools = tools();
        if (open != null) {
            throw new IllegalStateException("a TestHosts is open in this JVM: close it first");
        }
        removeLeftovers(tools.ip());
        long pid = ProcessHandle.current().pid();
        TestHosts hosts = new TestHosts(tools.ip(), tools.iptables(), PREFIX + Long.toString(pid, 36) + "-", freeSubnet(tools.ip(), pid));
        Runtime.getRuntime().addShutdownHook(hosts.teardown);
        open = hosts;
        try {
            hosts.ip("link", "add", hosts.bridge, "type", "bridge");
            hosts.ip("addr", "add", hosts.clientAddress() + "/24", "dev", hosts.bridge);
            hosts.ip("link", "set", hosts.bridge, "up");
        } catch (IOException e) {
            hosts.close();
            throw e;
        }
        return hosts;
    }

    /** A new host: a namespace with loopback up and one end of a veth pair at {@code .k}; the other end on the bridge. */
    public synchronized Host host(String name) throws IOException {
        if (!name.matches("[a-z0-9]{1,20}")) {
            throw new IllegalArgumentException("a host's name is part of its namespace's: [a-z0-9]{1,20}, not " + name);
        }
        int k = links.size() + 2;
        Host host = new Host(name, run + name, subnet + k);
        String outside = run + "h" + k;
        String inside = run + "n" + k;
        ip("netns", "add", host.namespace());
        ip("-n", host.namespace(), "link", "set", "lo", "up");
        ip("link", "add", outside, "type", "veth", "peer", "name", inside, "netns", host.namespace());
        ip("link", "set", outside, "master", bridge, "up");
        ip("-n", host.namespace(), "addr", "add", host.address() + "/24", "dev", inside);
        ip("-n", host.namespace(), "link", "set", inside, "up");
        links.put(host, outside);
        return host;
    }

    private String link(Host host) {
        String link = links.get(host);
        if (link == null) {
            throw new IllegalArgumentException(host + " is not a host of " + run + "*");
        }
        return link;
    }

    /** The test JVM's address on the bridge, the one address an isolated host still talks to. */
    public String clientAddress() {
        return subnet + "1";
    }

    /** {@code argv} as run inside the host's namespace: it sees only the host's network. */
    public List<String> command(Host host, List<String> argv) {
        List<String> command = new ArrayList<>(List.of(ip.toString(), "netns", "exec", host.namespace()));
        command.addAll(argv);
        return command;
    }

    /** Its link down: no one reaches the host and it reaches no one, the client included. */
    public void cut(Host host) throws IOException {
        ip("link", "set", link(host), "down");
    }

    /**
     * Inside the host's namespace, drops everything to and from the other hosts but the client
     * (and loopback: the host still talks to itself). DROP, not REJECT: a peer's packets vanish,
     * as behind a failed switch, so connections time out rather than being refused.
     */
    public void isolate(Host host) throws IOException {
        String others = subnet + "0/24";
        iptables(host, "-A", "INPUT", "-i", "lo", "-j", "ACCEPT");
        iptables(host, "-A", "INPUT", "-s", clientAddress(), "-j", "ACCEPT");
        iptables(host, "-A", "INPUT", "-s", others, "-j", "DROP");
        iptables(host, "-A", "OUTPUT", "-o", "lo", "-j", "ACCEPT");
        iptables(host, "-A", "OUTPUT", "-d", clientAddress(), "-j", "ACCEPT");
        iptables(host, "-A", "OUTPUT", "-d", others, "-j", "DROP");
    }

    /** Undoes {@link #cut} and {@link #isolate}: its link up, its namespace's rules (all ours) flushed. */
    public void heal(Host host) throws IOException {
        ip("link", "set", link(host), "up");
        iptables(host, "-F");
    }

    /** Whether a TCP connection from inside the host to {@code address:port} opens within the timeout. */
    public boolean connects(Host from, String address, int port, Duration timeout) throws IOException, InterruptedException {
        // bash's /dev/tcp: a connect from inside the namespace without a JVM start
        List<String> argv = List.of("timeout", String.valueOf(Math.max(1, timeout.toSeconds())), "bash", "-c",
                "exec 3<>/dev/tcp/" + address + "/" + port);
        Said said = execute(command(from, argv));
        if (said.exit() != 0 && said.exit() != 1 && said.exit() != 124) { // not connected, refused, timed out: something else failed
            logFailure(command(from, argv), said);
        }
        return said.exit() == 0;
    }

    /** SIGSTOP: the process stops dead, its sockets open, until {@link #resume}. */
    public static void pause(long pid) throws IOException {
        check(List.of("kill", "-STOP", String.valueOf(pid)));
    }

    /** SIGCONT. */
    public static void resume(long pid) throws IOException {
        check(List.of("kill", "-CONT", String.valueOf(pid)));
    }

    /**
     * Whether the process lives, from its {@code /proc} state: not a zombie. PID 1 here reaps
     * orphans late, so a dead process can linger as a zombie that {@code kill -0} calls alive.
     */
    public static boolean alive(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", String.valueOf(pid), "stat"));
            char state = stat.charAt(stat.lastIndexOf(')') + 2);
            return state != 'Z' && state != 'X';
        } catch (IOException e) {
            return false;
        }
    }

    /** What of this run is still there: namespaces and links named with its prefix. Empty once closed. */
    public List<String> leftovers() throws IOException {
        return Stream.concat(namespaces(ip, run).stream(), links(ip, run).stream()).toList();
    }

    /** Kills every process in its namespaces, then removes the namespaces, the veth pairs and the bridge. */
    @Override
    public void close() {
        synchronized (TestHosts.class) {
            remove(ip, run);
            try {
                Runtime.getRuntime().removeShutdownHook(teardown);
            } catch (IllegalStateException shuttingDown) {
                // the hook runs anyway, and finds nothing left
            }
            open = null;
        }
    }

    /** Everything of runs whose JVM is gone (and of this JVM's own earlier instances, none open now). */
    private static void removeLeftovers(Path ip) throws IOException {
        List<String> names = new ArrayList<>(namespaces(ip, PREFIX));
        names.addAll(links(ip, PREFIX));
        names.stream().map(RUN::matcher).filter(Matcher::lookingAt).map(m -> m.group()).distinct()
                .filter(run -> {
                    long owner = Long.parseLong(run.substring(PREFIX.length(), run.length() - 1), 36);
                    return owner == ProcessHandle.current().pid() || !alive(owner);
                })
                .forEach(run -> {
                    System.err.println("[test-hosts] removing what an earlier run left: " + run + "*");
                    remove(ip, run);
                });
    }

    private static void remove(Path ip, String run) {
        try {
            List<String> namespaces = namespaces(ip, run);
            List<Long> pids = new ArrayList<>();
            for (String ns : namespaces) {
                execute(List.of(ip.toString(), "netns", "pids", ns)).out().lines().filter(l -> !l.isBlank()).map(Long::valueOf).forEach(pids::add);
            }
            pids.forEach(pid -> ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (pids.stream().anyMatch(TestHosts::alive) && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            pids.stream().filter(TestHosts::alive).forEach(pid -> System.err.println("[test-hosts] process " + pid + " survived SIGKILL for 30 s"));
            // veth pairs first (deleting one end deletes both), then the namespaces, then the bridge
            List<String> links = links(ip, run);
            String bridge = run + "br";
            links.stream().filter(l -> !l.equals(bridge)).forEach(l -> attempt(List.of(ip.toString(), "link", "del", l)));
            namespaces.forEach(ns -> attempt(List.of(ip.toString(), "netns", "del", ns)));
            links.stream().filter(l -> l.equals(bridge)).forEach(l -> attempt(List.of(ip.toString(), "link", "del", l)));
        } catch (IOException e) {
            System.err.println("[test-hosts] teardown of " + run + "* failed: " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static List<String> namespaces(Path ip, String prefix) throws IOException {
        // "name" or "name (id: 3)", one a line
        return check(List.of(ip.toString(), "netns", "list")).lines().map(l -> l.split(" ")[0]).filter(n -> n.startsWith(prefix)).toList();
    }

    private static List<String> links(Path ip, String prefix) throws IOException {
        // "7: name@if6: <...", one a line
        return check(List.of(ip.toString(), "-o", "link", "show")).lines().map(l -> l.split(": ")[1].replaceAll("@.*$", ""))
                .filter(n -> n.startsWith(prefix)).toList();
    }

    /** The first 10.213.N.0/24 from one the pid picks (concurrent runs start apart) that no address or route here uses. */
    private static String freeSubnet(Path ip, long pid) throws IOException {
        String used = check(List.of(ip.toString(), "-4", "route", "show", "table", "all")) + check(List.of(ip.toString(), "-4", "addr", "show"));
        for (int i = 0; i < 254; i++) {
            String subnet = "10.213." + (1 + (pid + i) % 254) + ".";
            if (!used.contains(subnet)) {
                return subnet;
            }
        }
        throw new IllegalStateException("every 10.213.N.0/24 is in use here: " + used);
    }

    private void ip(String... args) throws IOException {
        List<String> argv = new ArrayList<>(List.of(ip.toString()));
        argv.addAll(List.of(args));
        check(argv);
    }

    private void iptables(Host host, String... args) throws IOException {
        List<String> argv = new ArrayList<>(List.of(iptables.toString()));
        argv.addAll(List.of(args));
        check(command(host, argv));
    }

    /** What a command said. */
    private record Said(int exit, String out, String err) {}

    /** Runs the command; its stdout, or a failure with its stderr (logged too: teardown's failures are only logged). */
    private static String check(List<String> argv) throws IOException {
        Said said = execute(argv);
        if (said.exit() != 0) {
            throw new IOException(logFailure(argv, said));
        }
        return said.out();
    }

    /** For teardown: a failure is logged and the rest goes on. */
    private static void attempt(List<String> argv) {
        try {
            Said said = execute(argv);
            if (said.exit() != 0) {
                logFailure(argv, said);
            }
        } catch (IOException e) {
            System.err.println("[test-hosts] " + String.join(" ", argv) + " could not run: " + e);
        }
    }

    private static String logFailure(List<String> argv, Said said) {
        String failure = String.join(" ", argv) + " failed (exit " + said.exit() + "): " + said.err().strip();
        System.err.println("[test-hosts] " + failure);
        return failure;
    }

    private static Said execute(List<String> argv) throws IOException {
        Process process = new ProcessBuilder(argv).start();
        process.getOutputStream().close();
        CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> read(process.getErrorStream()));
        String out = read(process.getInputStream());
        try {
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IOException(String.join(" ", argv) + " did not finish within 60 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
            throw new IOException("interrupted while " + String.join(" ", argv) + " ran", e);
        }
        return new Said(process.exitValue(), out, err.join());
    }

    private static String read(java.io.InputStream in) {
        try (in) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "(unreadable: " + e + ")";
        }
    }
}
