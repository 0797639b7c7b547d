package dev.spool.broker.quorum;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class QuorumVoterTest {

    @Test
    void parsesKafkasVoterSyntaxAndNamesWhatItCannotRead() {
        assertThat(QuorumVoter.parseAll("1@localhost:9093, 2@10.0.0.2:19093,3@[::1]:9093")).containsExactly(
                new QuorumVoter(1, "localhost", 9093), new QuorumVoter(2, "10.0.0.2", 19093),
                new QuorumVoter(3, "[::1]", 9093));
        assertThatThrownBy(() -> QuorumVoter.parseAll("1@localhost")).hasMessageContaining("'1@localhost'")
                .hasMessageContaining("id@host:port");
        assertThatThrownBy(() -> QuorumVoter.parseAll("x@localhost:9093")).hasMessageContaining("'x@localhost:9093'");
        assertThatThrownBy(() -> QuorumVoter.parseAll("1@a:9093,1@b:9093")).hasMessageContaining("node 1 twice");
    }
}
