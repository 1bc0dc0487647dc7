package dev.cairn.hostile;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.Socket;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Connections a caller opens and never finishes: each is closed once idle, and past the connection cap new ones are
 * closed at once, while the service goes on answering.
 */
@QuarkusTest
@TestProfile(ConnectionsProfile.class)
class HostileConnectionsResourceTest {

    static final int PORT = Integer.getInteger("quarkus.http.test-port", 8081);

    @Test
    void halfSentRequestsAreClosedOnceIdle() throws Exception {
        var sockets = new ArrayList<Socket>();
        try {
            for (int i = 0; i < 50; i++) {
                Socket socket = new Socket("localhost", PORT);
                socket.getOutputStream().write("GET /teams/t1 HTTP/1.1\r\nHost: localhost\r\nX-Slow: ".getBytes(StandardCharsets.ISO_8859_1));
                socket.getOutputStream().flush();
                sockets.add(socket);
            }
            long start = System.nanoTime();
            for (Socket socket : sockets) {
                socket.setSoTimeout(10_000);
                assertThat(socket.getInputStream().read()).as("closed by the service").isEqualTo(-1);
            }
            // the idle timeout is 2 s here: none waited for more than a few seconds
            assertThat((System.nanoTime() - start) / 1e9).isLessThan(8.0);
        } finally {
            for (Socket socket : sockets) {
                socket.close();
            }
        }
        given().get("/teams/{id}", "none-half").then().statusCode(404);
    }

    @Test
    void connectionsPastTheCapAreClosedAtOnce() throws Exception {
        int cap = ConnectionsProfile.MAX_CONNECTIONS * ConnectionsProfile.IO_THREADS;
        var open = new ArrayList<SocketChannel>();
        try (Selector selector = Selector.open()) {
            for (int i = 0; i < cap + 60; i++) {
                SocketChannel channel = SocketChannel.open(new InetSocketAddress("localhost", PORT));
                // a head begun, never finished: the HTTP layer counts a connection once its first bytes say HTTP/1
                channel.write(ByteBuffer.wrap("GET /teams/t1 HTTP/1.1\r\n".getBytes(StandardCharsets.ISO_8859_1)));
                channel.configureBlocking(false);
                channel.register(selector, SelectionKey.OP_READ);
                open.add(channel);
            }
            // well within the idle timeout (2 s), which would close the others too: only the refused ones end
            var closed = new java.util.HashSet<SocketChannel>();
            long until = System.nanoTime() + 1_000_000_000L;
            var buffer = ByteBuffer.allocate(1024);
            while (System.nanoTime() < until) {
                selector.select(100);
                for (SelectionKey key : selector.selectedKeys()) {
                    var channel = (SocketChannel) key.channel();
                    buffer.clear();
                    int read;
                    try {
                        read = channel.read(buffer);
                    } catch (IOException reset) {
                        read = -1;
                    }
                    if (read == -1) {
                        closed.add(channel);
                        key.cancel();
                    }
                }
                selector.selectedKeys().clear();
            }
            assertThat(closed.size()).as("connections past the cap of %d closed", cap).isGreaterThanOrEqualTo(50)
                    .isLessThan(cap);
        } finally {
            for (SocketChannel channel : open) {
                channel.close();
            }
        }
        Thread.sleep(500);
        given().get("/teams/{id}", "none-cap").then().statusCode(404);
    }
}
