package dev.spool.broker.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class EndpointTest {

    @Test
    void parsesListenerNameHostAndPort() {
        assertThat(Endpoint.parse("PLAINTEXT://broker1.example.com:9092", "listeners"))
                .isEqualTo(new Endpoint("PLAINTEXT", "broker1.example.com", 9092));
    }

    @Test
    void ignoresSurroundingSpaces() {
        assertThat(Endpoint.parse("  INTERNAL://10.0.0.1:19092 ", "listeners"))
                .isEqualTo(new Endpoint("INTERNAL", "10.0.0.1", 19092));
    }

    @Test
    void emptyHostMeansEveryInterface() {
        assertThat(Endpoint.parse("PLAINTEXT://:9092", "listeners")).isEqualTo(new Endpoint("PLAINTEXT", "", 9092));
    }

    @Test
    void bracketedIpv6HostIsUnbracketedAndWrittenBackBracketed() {
        Endpoint endpoint = Endpoint.parse("PLAINTEXT://[::1]:9092", "listeners");

        assertThat(endpoint).isEqualTo(new Endpoint("PLAINTEXT", "::1", 9092));
        assertThat(endpoint.toString()).isEqualTo("PLAINTEXT://[::1]:9092");
    }

    @Test
    void portZeroIsAllowedAndReplacedByTheBoundPort() {
        Endpoint endpoint = Endpoint.parse("PLAINTEXT://localhost:0", "listeners");

        assertThat(endpoint.port()).isZero();
        assertThat(endpoint.withPort(40123)).isEqualTo(new Endpoint("PLAINTEXT", "localhost", 40123));
    }

    @Test
    void toStringIsTheConfigForm() {
        assertThat(new Endpoint("PLAINTEXT", "localhost", 9092)).hasToString("PLAINTEXT://localhost:9092");
    }

    @ParameterizedTest
    @ValueSource(strings = {"localhost:9092", "://localhost:9092", "PLAINTEXT://localhost", "PLAINTEXT://", "",
        "PLAINTEXT://localhost:", "PLAINTEXT://localhost:ninety", "PLAINTEXT://localhost:65536",
        "PLAINTEXT://localhost:-1"})
    void invalidEndpointRaisesConfigExceptionNamingTheProperty(String text) {
        assertThatThrownBy(() -> Endpoint.parse(text, "advertised.listeners"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("advertised.listeners");
    }
}
