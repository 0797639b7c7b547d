package dev.spool.broker.api;

import dev.spool.broker.metadata.MetadataImage;
import dev.spool.broker.metadata.MetadataManager;
import dev.spool.broker.metadata.ScramCredential;
import dev.spool.broker.security.ScramCredentialChanges;
import dev.spool.protocol.Errors;
import dev.spool.protocol.message.AlterUserScramCredentialsRequestData;
import dev.spool.protocol.message.AlterUserScramCredentialsResponseData;
import dev.spool.protocol.message.ApiKey;
import dev.spool.protocol.message.DescribeUserScramCredentialsRequestData;
import dev.spool.protocol.message.DescribeUserScramCredentialsRequestData.UserName;
import dev.spool.protocol.message.DescribeUserScramCredentialsResponseData;
import dev.spool.protocol.message.DescribeUserScramCredentialsResponseData.CredentialInfo;
import dev.spool.protocol.message.DescribeUserScramCredentialsResponseData.DescribeUserScramCredentialsResult;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * AlterUserScramCredentials (v0; on a broker forwarded to the active controller, which writes the records) and
 * DescribeUserScramCredentials (v0, answered from this node's metadata image): what
 * {@code kafka-configs --entity-type users --alter --add-config 'SCRAM-SHA-256=[password=...]'} and
 * {@code --describe} send. Thread-safe.
 */
public final class ScramCredentialsHandler implements ApiFamily {

    private final MetadataManager metadata;

    public ScramCredentialsHandler(MetadataManager metadata) {
        this.metadata = metadata;
    }

    @Override
    public void registerIn(ApiRegistry registry) {
        registry.register(ApiKey.ALTER_USER_SCRAM_CREDENTIALS, 0, 0, AlterUserScramCredentialsRequestData.class,
                        (context, request) -> metadata.submit(image -> ScramCredentialChanges.alter(image, request))
                                .thenApply(results -> new AlterUserScramCredentialsResponseData().setResults(results)))
                .register(ApiKey.DESCRIBE_USER_SCRAM_CREDENTIALS, 0, 0, DescribeUserScramCredentialsRequestData.class,
                        (context, request) -> CompletableFuture.completedFuture(describe(metadata.image(), request)));
    }

    /** Every user with credentials when none is named; a named user without any is RESOURCE_NOT_FOUND, as Kafka. */
    static DescribeUserScramCredentialsResponseData describe(MetadataImage image,
                                                            DescribeUserScramCredentialsRequestData request) {
        List<DescribeUserScramCredentialsResult> results = new ArrayList<>();
        if (request.users() == null || request.users().isEmpty()) {
            image.scramCredentials().forEach((user, credentials) -> results.add(found(user, credentials)));
            return new DescribeUserScramCredentialsResponseData().setResults(results);
        }
        Set<String> seen = new HashSet<>();
        Set<String> duplicated = new HashSet<>();
        for (UserName user : request.users()) {
            if (!seen.add(user.name())) {
                duplicated.add(user.name());
            }
        }
        for (String user : seen) {
            Map<Byte, ScramCredential> credentials = image.scramCredentials().get(user);
            if (duplicated.contains(user)) {
                results.add(failed(user, Errors.DUPLICATE_RESOURCE, "Cannot describe SCRAM credentials for the "
                        + "same user twice in a single request: " + user));
            } else if (credentials == null) {
                results.add(failed(user, Errors.RESOURCE_NOT_FOUND,
                        "Attempt to describe a user credential that does not exist: " + user));
            } else {
                results.add(found(user, credentials));
            }
        }
        return new DescribeUserScramCredentialsResponseData().setResults(results);
    }

    private static DescribeUserScramCredentialsResult found(String user, Map<Byte, ScramCredential> credentials) {
        List<CredentialInfo> infos = new ArrayList<>();
        credentials.values().forEach(credential -> infos.add(new CredentialInfo()
                .setMechanism(credential.mechanism()).setIterations(credential.iterations())));
        return new DescribeUserScramCredentialsResult().setUser(user).setErrorCode(Errors.NONE.code())
                .setCredentialInfos(infos);
    }

    private static DescribeUserScramCredentialsResult failed(String user, Errors error, String message) {
        return new DescribeUserScramCredentialsResult().setUser(user).setErrorCode(error.code())
                .setErrorMessage(message).setCredentialInfos(new ArrayList<>());
    }
}
