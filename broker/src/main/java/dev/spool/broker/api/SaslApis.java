package dev.spool.broker.api;

import dev.spool.protocol.Errors;
import dev.spool.protocol.message.ApiKey;
import dev.spool.protocol.message.SaslAuthenticateRequestData;
import dev.spool.protocol.message.SaslAuthenticateResponseData;
import dev.spool.protocol.message.SaslHandshakeRequestData;
import dev.spool.protocol.message.SaslHandshakeResponseData;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * SaslHandshake (v0-1) and SaslAuthenticate (v0-2) as advertised in ApiVersions. A SASL listener's connection
 * authenticates before its requests reach any handler (the network layer's SASL gate answers these two there), so
 * one that reaches a handler comes on a listener without SASL, or after authenticating (re-authentication,
 * KIP-368, is not served yet): answered ILLEGAL_SASL_STATE, as Kafka answers it. Stateless.
 */
public final class SaslApis implements ApiFamily {

    @Override
    public void registerIn(ApiRegistry registry) {
        registry.register(ApiKey.SASL_HANDSHAKE, 0, ApiKey.SASL_HANDSHAKE.highestVersion,
                        SaslHandshakeRequestData.class, (context, request) -> CompletableFuture.completedFuture(
                                new SaslHandshakeResponseData().setErrorCode(Errors.ILLEGAL_SASL_STATE.code())
                                        .setMechanisms(List.of())))
                .register(ApiKey.SASL_AUTHENTICATE, 0, ApiKey.SASL_AUTHENTICATE.highestVersion,
                        SaslAuthenticateRequestData.class, (context, request) -> CompletableFuture.completedFuture(
                                new SaslAuthenticateResponseData().setErrorCode(Errors.ILLEGAL_SASL_STATE.code())
                                        .setErrorMessage("Unexpected SaslAuthenticate: the connection is not in "
                                                + "SASL authentication").setAuthBytes(new byte[0])));
    }
}
