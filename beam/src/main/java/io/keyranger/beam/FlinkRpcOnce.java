package io.keyranger.beam;

import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.Comparator;
import java.util.ServiceLoader;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.rpc.AddressResolution;
import org.apache.flink.runtime.rpc.RpcSystem;
import org.apache.flink.runtime.rpc.RpcSystemLoader;

/**
 * Flink's RPC system, loaded once a JVM. Flink loads it for every mini-cluster it starts: it copies its 22 MB Pekko
 * jar to a temporary directory and loads its 1,456 classes in a class loader of their own, which the JIT then compiles
 * again, and closes it all when the cluster stops. So a JVM that runs more than one pipeline (a warmed-up bench, the
 * tests, a launcher that runs a job again) paid that for each run, and its compiler never caught up (issue 48). Found
 * before Flink's own loader (a lower priority loads first), this one asks that loader once and hands the same system
 * to every cluster; the JVM's exit closes it.
 */
public final class FlinkRpcOnce implements RpcSystemLoader {
    private static RpcSystem shared;
    private static int loads;

    @Override
    public int getLoadPriority() {
        return -1; // Flink's own Pekko loader's is 0
    }

    @Override
    public RpcSystem loadRpcSystem(Configuration config) {
        return new Kept(system(config));
    }

    private static synchronized RpcSystem system(Configuration config) {
        if (shared == null) {
            RpcSystemLoader flinks = ServiceLoader.load(RpcSystemLoader.class).stream()
                    .filter(p -> p.type() != FlinkRpcOnce.class)
                    .map(ServiceLoader.Provider::get)
                    .min(Comparator.comparingInt(RpcSystemLoader::getLoadPriority))
                    .orElseThrow(() -> new IllegalStateException("Flink's RPC system is not on the class path"));
            RpcSystem loaded = flinks.loadRpcSystem(config);
            Runtime.getRuntime().addShutdownHook(new Thread(loaded::close, "close Flink's RPC system"));
            shared = loaded;
            loads++;
        }
        return shared;
    }

    /** How many times this JVM has loaded Flink's RPC system: at most once. */
    static synchronized int loads() {
        return loads;
    }

    /** The shared system, which a cluster that stops leaves open for the next. */
    private record Kept(RpcSystem system) implements RpcSystem {
        @Override
        public RpcServiceBuilder localServiceBuilder(Configuration config) {
            return system.localServiceBuilder(config);
        }

        @Override
        public RpcServiceBuilder remoteServiceBuilder(Configuration config, String externalAddress,
                                                      String externalPortRange) {
            return system.remoteServiceBuilder(config, externalAddress, externalPortRange);
        }

        @Override
        public String getRpcUrl(String hostname, int port, String endpointName, AddressResolution resolution,
                                Configuration config) throws UnknownHostException {
            return system.getRpcUrl(hostname, port, endpointName, resolution, config);
        }

        @Override
        public InetSocketAddress getInetSocketAddressFromRpcUrl(String url) throws Exception {
            return system.getInetSocketAddressFromRpcUrl(url);
        }

        @Override
        public long getMaximumMessageSizeInBytes(Configuration config) {
            return system.getMaximumMessageSizeInBytes(config);
        }

        @Override
        public void close() {
            // kept for the JVM's next cluster
        }
    }
}
