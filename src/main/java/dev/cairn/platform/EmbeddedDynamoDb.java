package dev.cairn.platform;

import software.amazon.dynamodb.services.local.main.ServerRunner;
import software.amazon.dynamodb.services.local.server.DynamoDBProxyServer;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;

import java.io.IOException;
import java.lang.reflect.Field;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * An in-process DynamoDB Local (the real engine, from the {@code provided} DynamoDBLocal artifact: on the dev
 * and test classpaths, never packaged). It listens on 127.0.0.1 only, never 0.0.0.0, and never sends telemetry.
 */
public final class EmbeddedDynamoDb implements AutoCloseable {

    private final DynamoDBProxyServer proxy;
    private final int port;

    private EmbeddedDynamoDb(DynamoDBProxyServer proxy, int port) {
        this.proxy = proxy;
        this.port = port;
    }

    /**
     * Starts an instance on 127.0.0.1.
     *
     * @param port    a fixed port, or 0 for a free ephemeral one
     * @param dataDir where to keep the data, or null for an in-memory instance
     */
    public static EmbeddedDynamoDb start(int port, Path dataDir) throws Exception {
        // DynamoDB Local's banner prints its -port: give it the port it will really serve (a free one for port 0).
        int serving = port != 0 ? port : freePort();
        List<String> args = new ArrayList<>(List.of("-disableTelemetry", "-sharedDb", "-port", Integer.toString(serving)));
        if (dataDir == null) {
            args.add("-inMemory");
        } else {
            Files.createDirectories(dataDir);
            args.addAll(List.of("-dbPath", dataDir.toAbsolutePath().toString()));
        }
        DynamoDBProxyServer proxy = ServerRunner.createServerFromCommandLineArgs(args.toArray(String[]::new));
        // The CLI has no host option: bind the Jetty connector to loopback before it starts.
        ServerConnector connector = (ServerConnector) jettyServer(proxy).getConnectors()[0];
        connector.setHost("127.0.0.1");
        connector.setPort(serving);
        proxy.start();
        return new EmbeddedDynamoDb(proxy, connector.getLocalPort());
    }

    private static int freePort() throws IOException {
        try (var socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    private static Server jettyServer(DynamoDBProxyServer proxy) throws ReflectiveOperationException {
        Field field = DynamoDBProxyServer.class.getDeclaredField("server");
        field.setAccessible(true);
        return (Server) field.get(proxy);
    }

    public int port() {
        return port;
    }

    public String endpoint() {
        return "http://127.0.0.1:" + port;
    }

    @Override
    public void close() throws Exception {
        proxy.stop();
    }
}
