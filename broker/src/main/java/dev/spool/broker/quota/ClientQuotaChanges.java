package dev.spool.broker.quota;

import dev.spool.broker.metadata.MetadataChange;
import dev.spool.broker.metadata.MetadataImage;
import dev.spool.broker.metadata.VersionedRecord;
import dev.spool.protocol.Errors;
import dev.spool.protocol.message.AlterClientQuotasRequestData;
import dev.spool.protocol.message.AlterClientQuotasRequestData.EntryData;
import dev.spool.protocol.message.AlterClientQuotasRequestData.OpData;
import dev.spool.protocol.message.AlterClientQuotasResponseData;
import dev.spool.protocol.metadata.MetadataRecordType;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * AlterClientQuotas on the active controller, as Kafka's controller decides it. Each entry is checked whole (its
 * entity: known types, none twice, an IP address alone and resolvable; each key: one that entity may have, a whole
 * number where Kafka's type is), and becomes ClientQuotaRecords, a key set to what it is already, or removed while
 * unset, without one; an entry that fails changes nothing and says why (INVALID_REQUEST). {@code validateOnly}
 * checks and writes nothing. Stateless.
 */
public final class ClientQuotaChanges {

    private static final Set<String> ENTITY_TYPES = Set.of(QuotaEntity.USER, QuotaEntity.CLIENT_ID, QuotaEntity.IP);

    private ClientQuotaChanges() {
    }

    public static MetadataChange<List<AlterClientQuotasResponseData.EntryData>> alter(
            MetadataImage image, AlterClientQuotasRequestData request) {
        List<VersionedRecord> records = new ArrayList<>();
        List<AlterClientQuotasResponseData.EntryData> results = new ArrayList<>();
        Set<QuotaEntity> seen = new HashSet<>();
        for (EntryData entry : request.entries()) {
            String problem = entityProblem(entry);
            if (problem == null && !seen.add(entityOf(entry))) {
                problem = "Duplicate quota entity in the request: " + entityOf(entry);
            }
            QuotaEntity entity = problem == null ? entityOf(entry) : null;
            List<VersionedRecord> changes = new ArrayList<>();
            Set<String> keys = new HashSet<>();
            for (int i = 0; problem == null && i < entry.ops().size(); i++) {
                OpData op = entry.ops().get(i);
                problem = keys.add(op.key()) ? opProblem(entity, op) : "Duplicate quota key " + op.key();
                if (problem == null) {
                    change(image, entity, op, changes);
                }
            }
            results.add(new AlterClientQuotasResponseData.EntryData().setEntity(echoed(entry))
                    .setErrorCode(problem == null ? Errors.NONE.code() : Errors.INVALID_REQUEST.code())
                    .setErrorMessage(problem));
            if (problem == null && !request.validateOnly()) {
                records.addAll(changes);
            }
        }
        return new MetadataChange<>(records, results);
    }

    /** The entity of an entry as its result names it. */
    public static List<AlterClientQuotasResponseData.EntityData> echoed(EntryData entry) {
        List<AlterClientQuotasResponseData.EntityData> echoed = new ArrayList<>();
        entry.entity().forEach(part -> echoed.add(new AlterClientQuotasResponseData.EntityData()
                .setEntityType(part.entityType()).setEntityName(part.entityName())));
        return echoed;
    }

    private static QuotaEntity entityOf(EntryData entry) {
        TreeMap<String, String> parts = new TreeMap<>();
        entry.entity().forEach(part -> parts.put(part.entityType(), part.entityName()));
        return new QuotaEntity(parts);
    }

    /** Why Kafka would refuse this entity, or null. */
    private static String entityProblem(EntryData entry) {
        if (entry.entity().isEmpty()) {
            return "Invalid empty client quota entity";
        }
        Set<String> types = new HashSet<>();
        for (AlterClientQuotasRequestData.EntityData part : entry.entity()) {
            if (!ENTITY_TYPES.contains(part.entityType())) {
                return "Unhandled client quota entity type: " + part.entityType();
            }
            if (!types.add(part.entityType())) {
                return "Invalid quota entity: the entity type " + part.entityType() + " is given twice";
            }
            boolean ip = part.entityType().equals(QuotaEntity.IP);
            if (ip && part.entityName() != null && !isAddress(part.entityName())) {
                return "Invalid IP address in the quota entity: " + part.entityName();
            }
            if (part.entityName() != null && part.entityName().isEmpty()) {
                return "Invalid empty name for the quota entity type " + part.entityType();
            }
        }
        if (types.contains(QuotaEntity.IP) && types.size() > 1) {
            return "Invalid quota entity combination: an IP address quota cannot be combined with a user or client id";
        }
        return null;
    }

    private static boolean isAddress(String name) {
        try {
            InetAddress.getByName(name);
            return true;
        } catch (UnknownHostException e) {
            return false;
        }
    }

    /** Why Kafka would refuse to set or remove this key of the entity, or null. */
    private static String opProblem(QuotaEntity entity, OpData op) {
        if (op.remove()) {
            return null; // as Kafka: removing what cannot be there removes nothing
        }
        QuotaType type = QuotaType.forKey(op.key());
        boolean ipEntity = entity.parts().containsKey(QuotaEntity.IP);
        if (type == null || type.onIp != ipEntity) {
            return "Invalid configuration key " + op.key() + " for the quota entity " + entity;
        }
        if (Double.isNaN(op.value()) || Double.isInfinite(op.value()) || op.value() < 0) {
            return "The quota " + op.key() + " must not be negative, not " + op.value();
        }
        if (type.integral && (op.value() != Math.rint(op.value()) || op.value() > Long.MAX_VALUE)) {
            return "The quota " + op.key() + " must be a Long value (a whole number), not " + op.value();
        }
        return null;
    }

    private static void change(MetadataImage image, QuotaEntity entity, OpData op, List<VersionedRecord> changes) {
        Double current = image.clientQuotas().getOrDefault(entity, Map.of()).get(op.key());
        if (op.remove() ? current == null : current != null && current == op.value()) {
            return;
        }
        changes.add(VersionedRecord.of(MetadataRecordType.CLIENT_QUOTA_RECORD,
                entity.record(op.key(), op.value(), op.remove())));
    }
}
