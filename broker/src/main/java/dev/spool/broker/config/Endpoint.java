package dev.spool.broker.config;

/**
 * One listener, as written in {@code listeners} / {@code advertised.listeners}:
 * {@code NAME://host:port}. Immutable.
 */
public record Endpoint(String listenerName, String host, int port) {

    public static Endpoint parse(String text, String property) {
        String trimmed = text.trim();
        int scheme = trimmed.indexOf("://");
        int colon = trimmed.lastIndexOf(':');
        if (scheme <= 0 || colon <= scheme + 2) {
            throw new ConfigException("invalid endpoint '" + text + "' in " + property + ": expected NAME://host:port");
        }
        String host = trimmed.substring(scheme + 3, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        int port;
        try {
            port = Integer.parseInt(trimmed.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw new ConfigException("invalid port in '" + text + "' in " + property);
        }
        if (port < 0 || port > 65535) {
            throw new ConfigException("port " + port + " out of range in " + property);
        }
        return new Endpoint(trimmed.substring(0, scheme), host, port);
    }

    /** This endpoint with the machine's host name, for a listener bound to every interface. */
    public Endpoint withHostOfThisMachine() {
        try {
            return new Endpoint(listenerName, java.net.InetAddress.getLocalHost().getCanonicalHostName(), port);
        } catch (java.net.UnknownHostException e) {
            return new Endpoint(listenerName, "localhost", port);
        }
    }

    public Endpoint withPort(int newPort) {
        return new Endpoint(listenerName, host, newPort);
    }

    @Override
    public String toString() {
        return listenerName + "://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
    }
}
