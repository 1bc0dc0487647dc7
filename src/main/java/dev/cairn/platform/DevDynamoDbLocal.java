package dev.cairn.platform;

import io.quarkus.arc.profile.IfBuildProfile;
import io.quarkus.runtime.StartupEvent;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Dev mode only: starts a file-backed DynamoDB Local on 127.0.0.1 before anything talks to DynamoDB, when the
 * configured endpoint is the embedded one. A user who points {@code quarkus.dynamodb.endpoint-override}
 * elsewhere gets nothing started. The instance is deliberately never stopped: it outlives live reloads (a
 * reload fires ShutdownEvent) and keeps its data; a reload finds the port taken by it and reuses it.
 */
@IfBuildProfile("dev")
@ApplicationScoped
public class DevDynamoDbLocal {

    private static final Logger LOG = Logger.getLogger(DevDynamoDbLocal.class);

    void start(@Observes @Priority(1) StartupEvent event, CairnConfig config,
               @ConfigProperty(name = "quarkus.dynamodb.endpoint-override") Optional<String> endpoint) throws Exception {
        int port = config.localDynamodb().port();
        String embedded = "http://127.0.0.1:" + port;
        if (endpoint.isEmpty() || !endpoint.get().equals(embedded)) {
            LOG.infof("DynamoDB endpoint is %s: no embedded DynamoDB Local started", endpoint.orElse("the AWS default"));
            return;
        }
        if (listening(port)) {
            LOG.debugf("embedded DynamoDB Local already serves %s", embedded);
            return;
        }
        Path dataDir = Path.of(config.localDynamodb().dataDir());
        EmbeddedDynamoDb.start(port, dataDir);
        LOG.infof("embedded DynamoDB Local serves %s with data in %s", embedded, dataDir.toAbsolutePath());
    }

    private static boolean listening(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 200);
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
