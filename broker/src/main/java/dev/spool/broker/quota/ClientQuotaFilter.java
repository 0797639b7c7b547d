package dev.spool.broker.quota;

import dev.spool.protocol.Errors;
import dev.spool.protocol.message.DescribeClientQuotasRequestData;
import dev.spool.protocol.message.DescribeClientQuotasRequestData.ComponentData;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Which quota entities a DescribeClientQuotas request asks for, as Kafka matches them: each component names an
 * entity type the entity must have, with a name that is exactly the one given (match type 0), the default (1) or
 * any (2); a strict filter also wants no type beyond the components'. Immutable.
 */
public final class ClientQuotaFilter {

    private static final byte EXACT = 0;
    private static final byte DEFAULT = 1;
    private static final byte ANY = 2;

    private final List<ComponentData> components;
    private final boolean strict;

    private ClientQuotaFilter(List<ComponentData> components, boolean strict) {
        this.components = components;
        this.strict = strict;
    }

    /** A filter Kafka refuses, with the error it answers. */
    public static final class InvalidFilterException extends IllegalArgumentException {
        public final Errors error;

        InvalidFilterException(Errors error, String message) {
            super(message);
            this.error = error;
        }
    }

    /** The request's filter, or an InvalidFilterException saying why Kafka would refuse it. */
    public static ClientQuotaFilter of(DescribeClientQuotasRequestData request) {
        Set<String> types = new HashSet<>();
        for (ComponentData component : request.components()) {
            String type = component.entityType();
            if (type == null || type.isEmpty()) {
                throw invalid("An entity type is required in each filter component");
            }
            if (!type.equals(QuotaEntity.USER) && !type.equals(QuotaEntity.CLIENT_ID) && !type.equals(QuotaEntity.IP)) {
                throw new InvalidFilterException(Errors.UNSUPPORTED_VERSION, "Unsupported entity type " + type);
            }
            if (!types.add(type)) {
                throw invalid("Duplicate filter component entity type " + type);
            }
            if (component.matchType() < EXACT || component.matchType() > ANY) {
                throw invalid("Unknown match type " + component.matchType());
            }
            if ((component.matchType() == EXACT) != (component.match() != null)) {
                throw invalid("A match string is given with an exact match (type 0) only, for the entity type " + type);
            }
        }
        if (types.contains(QuotaEntity.IP) && types.size() > 1) {
            throw invalid("Invalid entity filter component combination: an IP filter cannot be combined with a user "
                    + "or client id filter");
        }
        return new ClientQuotaFilter(request.components(), request.strict());
    }

    private static InvalidFilterException invalid(String message) {
        return new InvalidFilterException(Errors.INVALID_REQUEST, message);
    }

    public boolean matches(QuotaEntity entity) {
        if (strict && entity.parts().size() != components.size()) {
            return false;
        }
        for (ComponentData component : components) {
            if (!entity.parts().containsKey(component.entityType())) {
                return false;
            }
            String name = entity.parts().get(component.entityType());
            if (component.matchType() == EXACT && !Objects.equals(name, component.match())
                    || component.matchType() == DEFAULT && name != null) {
                return false;
            }
        }
        return true;
    }
}
