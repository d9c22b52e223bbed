package demo;

import java.io.OutputStream;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import logist.agent.Agent;
import logist.task.TaskDistribution;
import logist.topology.Topology;

/**
 * A test agent that plays like Plain after trying, in setup, what the sandbox must refuse: it
 * prints "GOT ..." for anything it obtained and "refused ..." for what was refused. Parameters:
 * "sentinel" (a file to create outside its folder), "referee" (the referee's pid), "port" (a TCP
 * and UDP port the test listens on).
 */
public class Intruder extends Plain {
    @Override
    public void setup(Topology topology, TaskDistribution distribution, Agent agent) {
        String sentinel = agent.readProperty("sentinel", String.class, "");
        long referee = agent.readProperty("referee", Long.class, 0L);
        int port = agent.readProperty("port", Integer.class, 0);
        attempt("write " + sentinel, () -> Files.writeString(Path.of(sentinel), "planted"));
        attempt("read environ of " + referee, () -> Files.readString(Path.of("/proc/" + referee + "/environ")));
        attempt("read cmdline of " + referee, () -> Files.readString(Path.of("/proc/" + referee + "/cmdline")));
        attempt("kill " + referee, () -> ProcessHandle.of(referee).map(ProcessHandle::destroyForcibly).orElse(false)
                ? "destroyed" : null);
        attempt("see processes", () -> {
            long others = ProcessHandle.allProcesses().filter(p -> p.pid() == referee).count();
            return others > 0 ? "the referee is visible" : null;
        });
        attempt("connect to " + port, () -> {
            try (Socket s = new Socket("127.0.0.1", port); OutputStream out = s.getOutputStream()) {
                out.write("hello".getBytes());
            }
            return "connected";
        });
        attempt("send a datagram to " + port, () -> {
            try (DatagramSocket s = new DatagramSocket()) {
                s.send(new DatagramPacket(new byte[] {1}, 1, InetAddress.getLoopbackAddress(), port));
            }
            return "sent";
        });
        attempt("listen", () -> {
            try (ServerSocket s = new ServerSocket(0)) {
                return "listening on " + s.getLocalPort();
            }
        });
        attempt("run a shell", () -> {
            Process p = new ProcessBuilder("sh", "-c", "echo planted > " + sentinel + ".sh").start();
            return p.waitFor() == 0 && Files.exists(Path.of(sentinel + ".sh")) ? "wrote with a shell" : null;
        });
        for (Map.Entry<String, String> e : System.getenv().entrySet()) {
            System.out.println("env " + e.getKey() + "=" + e.getValue());
        }
        super.setup(topology, distribution, agent);
    }

    private interface Attempt {
        Object run() throws Exception;
    }

    private static void attempt(String what, Attempt attempt) {
        try {
            Object got = attempt.run();
            System.out.println(got == null ? "refused " + what + ": nothing" : "GOT " + what + ": " + got);
        } catch (Throwable t) {
            System.out.println("refused " + what + ": " + t);
        }
    }
}
