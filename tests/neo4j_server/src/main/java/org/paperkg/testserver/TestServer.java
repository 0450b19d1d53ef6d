package org.paperkg.testserver;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.neo4j.configuration.GraphDatabaseSettings;
import org.neo4j.configuration.connectors.BoltConnector;
import org.neo4j.configuration.connectors.HttpConnector;
import org.neo4j.configuration.helpers.SocketAddress;
import org.neo4j.dbms.api.DatabaseManagementService;
import org.neo4j.dbms.api.DatabaseManagementServiceBuilder;
import org.neo4j.io.ByteUnit;

/**
 * An in-process Neo4j Community server with Bolt on a loopback port, for tests.
 *
 * <p>Arguments: {@code --port N --password P --home DIR [--import-dir DIR] [--pagecache-mb M]}. User {@code neo4j}
 * gets password P. Prints {@code PAPERKG-NEO4J-READY bolt://127.0.0.1:N} once Bolt accepts
 * connections, then runs until standard input closes or the process gets SIGTERM/SIGINT.
 */
public final class TestServer {

    /** Databases checkpoint and stop within this; committed data is in the logs anyway. */
    private static final long STOP_WAIT_MILLIS = 2000;

    private TestServer() {}

    public static void main(String[] args) throws IOException {
        Map<String, String> opts = parse(args);
        int port = Integer.parseInt(require(opts, "--port"));
        String password = require(opts, "--password");
        Path home = Path.of(require(opts, "--home")).toAbsolutePath();
        Path importDir = Path.of(opts.getOrDefault("--import-dir", home.resolve("import").toString()))
                .toAbsolutePath();

        DatabaseManagementService dbms = new DatabaseManagementServiceBuilder(home)
                .setConfig(BoltConnector.enabled, true)
                .setConfig(BoltConnector.listen_address, new SocketAddress("127.0.0.1", port))
                .setConfig(BoltConnector.encryption_level, BoltConnector.EncryptionLevel.DISABLED)
                .setConfig(HttpConnector.enabled, false)
                .setConfig(GraphDatabaseSettings.auth_enabled, true)
                .setConfig(GraphDatabaseSettings.load_csv_file_url_root, importDir)
                .setConfig(GraphDatabaseSettings.pagecache_memory,
                        ByteUnit.mebiBytes(Long.parseLong(opts.getOrDefault("--pagecache-mb", "128"))))
                .setConfig(GraphDatabaseSettings.shutdown_transaction_end_timeout, Duration.ofSeconds(2))
                .build();

        // On SIGTERM/SIGINT (and System.exit) stop the databases, then halt without waiting
        // for Bolt's ~10 s graceful network shutdown: a test server has nobody left to serve.
        Runtime.getRuntime().addShutdownHook(new Thread(() -> stopQuickly(dbms), "paperkg-neo4j-stop"));

        try {
            dbms.database(GraphDatabaseSettings.SYSTEM_DATABASE_NAME).executeTransactionally(
                    "ALTER USER neo4j SET PASSWORD $password CHANGE NOT REQUIRED",
                    Map.of("password", password));
        } catch (org.neo4j.graphdb.QueryExecutionException e) {
            // a home started before (a restart after a crash) already has this password
            if (!e.getMessage().contains("cannot be the same")) {
                throw e;
            }
        }

        System.out.println("PAPERKG-NEO4J-READY bolt://127.0.0.1:" + port);
        System.out.flush();

        // Stop when whoever started us goes away (stdin closes).
        while (System.in.read() != -1) {
            // discard input
        }
        System.exit(0); // runs the shutdown hook
    }

    private static void stopQuickly(DatabaseManagementService dbms) {
        Thread shutdown = new Thread(dbms::shutdown, "paperkg-neo4j-shutdown");
        shutdown.setDaemon(true);
        shutdown.start();
        try {
            shutdown.join(STOP_WAIT_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        Runtime.getRuntime().halt(0);
    }

    private static Map<String, String> parse(String[] args) {
        Map<String, String> opts = new HashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            opts.put(args[i], args[i + 1]);
        }
        return opts;
    }

    private static String require(Map<String, String> opts, String name) {
        String value = opts.get(name);
        if (value == null) {
            System.err.println("missing " + name
                    + "; usage: TestServer --port N --password P --home DIR [--import-dir DIR]"
                    + " [--pagecache-mb M]");
            System.exit(2);
        }
        return value;
    }
}
