package dev.spool.it;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A broker's metrics endpoint ({@code metrics.listener}), found in its start-up output, scraped into samples. */
final class PrometheusEndpoint {

    private static final Pattern ENDPOINT = Pattern.compile("Metrics endpoint listening on (http://\\S+/metrics)");
    private static final Pattern SAMPLE = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*(?:\\{[^}]*})?) (\\S+)$");

    private final HttpClient http = HttpClient.newHttpClient();
    private final URI uri;

    private PrometheusEndpoint(URI uri) {
        this.uri = uri;
    }

    /** The endpoint {@code spool} logged at start-up. */
    static PrometheusEndpoint of(SpoolProcess spool) {
        return new PrometheusEndpoint(URI.create(spool.output().stream().map(ENDPOINT::matcher)
                .filter(Matcher::find).findFirst().orElseThrow().group(1)));
    }

    /** Every sample, by name with its labels ({@code name{label="value"}}). */
    Map<String, Double> scrape() throws Exception {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(uri).build(),
                HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IllegalStateException("metrics endpoint answered " + response.statusCode());
        }
        Map<String, Double> samples = new HashMap<>();
        for (String line : response.body().split("\n")) {
            Matcher sample = SAMPLE.matcher(line);
            if (!line.startsWith("#") && sample.matches()) {
                samples.put(sample.group(1), Double.parseDouble(sample.group(2)));
            }
        }
        return samples;
    }
}
