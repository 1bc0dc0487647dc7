package dev.cairn.reliability;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A TCP proxy on 127.0.0.1 between a client and DynamoDB Local that injects faults: refused connections, a reset
 * in the middle of a response, or latency added before the response.
 */
final class FaultProxy implements AutoCloseable {

    enum Fault { NONE, REFUSE, RESET_MID_RESPONSE, DELAY }

    private final ServerSocket server;
    private final InetSocketAddress target;
    private final ExecutorService pool = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "fault-proxy");
        t.setDaemon(true);
        return t;
    });
    private volatile Fault fault = Fault.NONE;
    private volatile long delayMillis;

    FaultProxy(int targetPort) throws IOException {
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        this.target = new InetSocketAddress(InetAddress.getLoopbackAddress(), targetPort);
        pool.submit(this::acceptLoop);
    }

    String endpoint() {
        return "http://127.0.0.1:" + server.getLocalPort();
    }

    void inject(Fault fault, long delayMillis) {
        this.delayMillis = delayMillis;
        this.fault = fault;
    }

    void clear() {
        this.fault = Fault.NONE;
    }

    private void acceptLoop() {
        while (!server.isClosed()) {
            try {
                Socket client = server.accept();
                if (fault == Fault.REFUSE) {
                    client.setSoLinger(true, 0);
                    client.close();
                    continue;
                }
                pool.submit(() -> pipe(client));
            } catch (IOException e) {
                return;
            }
        }
    }

    private void pipe(Socket client) {
        try (client; Socket upstream = new Socket()) {
            upstream.connect(target, 1000);
            pool.submit(() -> copy(client, upstream, false));
            copy(upstream, client, true);
        } catch (IOException e) {
            // connection ended
        }
    }

    /** Copies one direction; on the response side the current fault is applied to every chunk. */
    private void copy(Socket from, Socket to, boolean response) {
        byte[] buffer = new byte[8192];
        try {
            InputStream in = from.getInputStream();
            OutputStream out = to.getOutputStream();
            int n;
            while ((n = in.read(buffer)) >= 0) {
                if (response && fault == Fault.DELAY) {
                    Thread.sleep(delayMillis);
                }
                if (response && (fault == Fault.RESET_MID_RESPONSE || fault == Fault.REFUSE)) {
                    out.write(buffer, 0, Math.min(n, 20));
                    out.flush();
                    to.setSoLinger(true, 0);
                    to.close();
                    from.close();
                    return;
                }
                out.write(buffer, 0, n);
                out.flush();
            }
        } catch (IOException | InterruptedException e) {
            // one side closed
        } finally {
            try {
                to.shutdownOutput();
            } catch (IOException e) {
                // already closed
            }
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
        pool.shutdownNow();
    }
}
