package dev.spool.broker.quota;

import dev.spool.protocol.metadata.ClientQuotaRecordData;
import dev.spool.protocol.metadata.ClientQuotaRecordData.EntityData;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * What a client quota is set on, as Kafka names it: a user, a client id, a client id of a user, or an IP address,
 * each part a type ({@value #USER}, {@value #CLIENT_ID}, {@value #IP}) and a name, a null name standing for the
 * type's default ({@code <default>}). Also names whom a quota's usage is measured for: the parts of the entity whose
 * quota applies, filled with the client's own names. Immutable.
 */
public record QuotaEntity(SortedMap<String, String> parts) {

    public static final String USER = "user";
    public static final String CLIENT_ID = "client-id";
    public static final String IP = "ip";

    public QuotaEntity {
        parts = Collections.unmodifiableSortedMap(new TreeMap<>(parts));
    }

    /** One part: a null name is the default of the type. */
    public static QuotaEntity of(String type, String name) {
        TreeMap<String, String> parts = new TreeMap<>();
        parts.put(type, name);
        return new QuotaEntity(parts);
    }

    /** A user's client id (either name null for the default). */
    public static QuotaEntity userAndClient(String user, String clientId) {
        TreeMap<String, String> parts = new TreeMap<>();
        parts.put(USER, user);
        parts.put(CLIENT_ID, clientId);
        return new QuotaEntity(parts);
    }

    /** The entity of a ClientQuotaRecord. */
    public static QuotaEntity of(ClientQuotaRecordData record) {
        TreeMap<String, String> parts = new TreeMap<>();
        for (EntityData part : record.entity()) {
            parts.put(part.entityType(), part.entityName());
        }
        return new QuotaEntity(parts);
    }

    /** A ClientQuotaRecord setting {@code key} of this entity to {@code value}, or removing it. */
    public ClientQuotaRecordData record(String key, double value, boolean remove) {
        List<EntityData> entity = new ArrayList<>();
        parts.forEach((type, name) -> entity.add(new EntityData().setEntityType(type).setEntityName(name)));
        return new ClientQuotaRecordData().setEntity(entity).setKey(key).setValue(remove ? 0 : value)
                .setRemove(remove);
    }

    /** This entity's types, each named as {@code names} names it. */
    QuotaEntity namedAs(Map<String, String> names) {
        TreeMap<String, String> named = new TreeMap<>();
        parts.keySet().forEach(type -> named.put(type, names.get(type)));
        return new QuotaEntity(named);
    }

    @Override
    public String toString() {
        StringBuilder text = new StringBuilder();
        parts.forEach((type, name) -> text.append(text.length() == 0 ? "" : ", ").append(type).append('=')
                .append(name == null ? "<default>" : name));
        return text.toString();
    }
}
