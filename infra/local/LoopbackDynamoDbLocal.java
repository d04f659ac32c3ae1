import java.lang.reflect.Field;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import software.amazon.dynamodb.services.local.main.ServerRunner;
import software.amazon.dynamodb.services.local.server.DynamoDBProxyServer;

/**
 * Starts Amazon DynamoDB Local listening on 127.0.0.1 only (infra/local/dynamodb.ts runs it with
 * `java LoopbackDynamoDbLocal.java <DynamoDB Local's own arguments>`).
 *
 * DynamoDB Local has no bind-address option: its server opens Jetty with `new Server(port)`, which
 * listens on every interface, without authentication. This launcher builds the server from the
 * same command-line arguments as the jar's own main class, sets the host of its connector to the
 * loopback address before starting it, and leaves out the main class's telemetry.
 */
public class LoopbackDynamoDbLocal {
  public static void main(String[] args) throws Exception {
    DynamoDBProxyServer proxy = ServerRunner.createServerFromCommandLineArgs(args);
    Field field = DynamoDBProxyServer.class.getDeclaredField("server");
    field.setAccessible(true);
    Server server = (Server) field.get(proxy);
    for (Connector connector : server.getConnectors()) {
      ((ServerConnector) connector).setHost("127.0.0.1");
    }
    proxy.start();
  }
}
