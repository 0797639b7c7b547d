package dev.spool.broker.security;

import dev.spool.broker.metadata.MetadataChange;
import dev.spool.broker.metadata.MetadataImage;
import dev.spool.broker.metadata.VersionedRecord;
import dev.spool.protocol.Errors;
import dev.spool.protocol.message.AlterUserScramCredentialsRequestData;
import dev.spool.protocol.message.AlterUserScramCredentialsRequestData.ScramCredentialDeletion;
import dev.spool.protocol.message.AlterUserScramCredentialsRequestData.ScramCredentialUpsertion;
import dev.spool.protocol.message.AlterUserScramCredentialsResponseData.AlterUserScramCredentialsResult;
import dev.spool.protocol.metadata.MetadataRecordType;
import dev.spool.protocol.metadata.RemoveUserScramCredentialRecordData;
import dev.spool.protocol.metadata.UserScramCredentialRecordData;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * AlterUserScramCredentials on the active controller, as Kafka decides it: each user's deletions and upsertions
 * are checked (a known mechanism, a user name, 4096 to 16384 iterations, a credential to delete that exists, no
 * user and mechanism named twice) and become UserScramCredentialRecords and RemoveUserScramCredentialRecords, all
 * of a user's or none. An upsertion carries the client's salt and salted password; the records keep only the keys
 * derived from it. Stateless.
 */
public final class ScramCredentialChanges {

    private ScramCredentialChanges() {
    }

    /** A user's outcome, before it becomes a result. */
    private record Outcome(Errors error, String message) {
    }

    public static MetadataChange<List<AlterUserScramCredentialsResult>> alter(
            MetadataImage image, AlterUserScramCredentialsRequestData request) {
        Map<String, Outcome> outcomes = new LinkedHashMap<>();
        Map<String, List<VersionedRecord>> recordsByUser = new LinkedHashMap<>();
        Set<String> seen = new HashSet<>();
        Set<String> duplicated = new HashSet<>();
        for (ScramCredentialDeletion deletion : request.deletions()) {
            if (!seen.add(deletion.name() + "\0" + deletion.mechanism())) {
                duplicated.add(deletion.name());
            }
        }
        for (ScramCredentialUpsertion upsertion : request.upsertions()) {
            if (!seen.add(upsertion.name() + "\0" + upsertion.mechanism())) {
                duplicated.add(upsertion.name());
            }
        }
        for (ScramCredentialDeletion deletion : request.deletions()) {
            Outcome problem = deletion.name().isEmpty() ? emptyName()
                    : ScramMechanism.ofId(deletion.mechanism()) == null ? unknownMechanism()
                    : image.scramCredential(deletion.name(), deletion.mechanism()) == null
                    ? new Outcome(Errors.RESOURCE_NOT_FOUND, "Attempt to delete a user credential that does not exist")
                    : null;
            record(outcomes, recordsByUser, deletion.name(), problem, new VersionedRecord(
                    MetadataRecordType.REMOVE_USER_SCRAM_CREDENTIAL_RECORD, (short) 0,
                    new RemoveUserScramCredentialRecordData().setName(deletion.name())
                            .setMechanism(deletion.mechanism())));
        }
        for (ScramCredentialUpsertion upsertion : request.upsertions()) {
            ScramMechanism mechanism = ScramMechanism.ofId(upsertion.mechanism());
            Outcome problem = upsertion.name().isEmpty() ? emptyName()
                    : mechanism == null ? unknownMechanism()
                    : upsertion.iterations() < ScramMechanism.MIN_ITERATIONS
                    ? new Outcome(Errors.UNACCEPTABLE_CREDENTIAL, "Too few iterations")
                    : upsertion.iterations() > ScramMechanism.MAX_ITERATIONS
                    ? new Outcome(Errors.UNACCEPTABLE_CREDENTIAL, "Too many iterations")
                    : null;
            VersionedRecord record = problem != null ? null : new VersionedRecord(
                    MetadataRecordType.USER_SCRAM_CREDENTIAL_RECORD, (short) 0, new UserScramCredentialRecordData()
                    .setName(upsertion.name()).setMechanism(upsertion.mechanism()).setSalt(upsertion.salt())
                    .setStoredKey(mechanism.storedKey(upsertion.saltedPassword()))
                    .setServerKey(mechanism.serverKey(upsertion.saltedPassword()))
                    .setIterations(upsertion.iterations()));
            record(outcomes, recordsByUser, upsertion.name(), problem, record);
        }
        for (String user : duplicated) {
            outcomes.put(user, new Outcome(Errors.DUPLICATE_RESOURCE,
                    "A user credential cannot be altered twice in the same request"));
        }
        List<VersionedRecord> records = new ArrayList<>();
        List<AlterUserScramCredentialsResult> results = new ArrayList<>();
        outcomes.forEach((user, outcome) -> {
            if (outcome.error() == Errors.NONE) {
                records.addAll(recordsByUser.get(user));
            }
            results.add(new AlterUserScramCredentialsResult().setUser(user).setErrorCode(outcome.error().code())
                    .setErrorMessage(outcome.message()));
        });
        return new MetadataChange<>(records, results);
    }

    /** Adds a user's record, or its first problem (after which none of its records are written). */
    private static void record(Map<String, Outcome> outcomes, Map<String, List<VersionedRecord>> recordsByUser,
                               String user, Outcome problem, VersionedRecord record) {
        Outcome current = outcomes.get(user);
        if (current != null && current.error() != Errors.NONE) {
            return;
        }
        if (problem != null) {
            outcomes.put(user, problem);
            return;
        }
        outcomes.put(user, new Outcome(Errors.NONE, null));
        recordsByUser.computeIfAbsent(user, name -> new ArrayList<>()).add(record);
    }

    private static Outcome emptyName() {
        return new Outcome(Errors.UNACCEPTABLE_CREDENTIAL, "Username must not be empty");
    }

    private static Outcome unknownMechanism() {
        return new Outcome(Errors.UNSUPPORTED_SASL_MECHANISM, "Unknown SCRAM mechanism");
    }
}
