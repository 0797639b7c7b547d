package dev.spool.broker.api;

import dev.spool.broker.metadata.MetadataImage;
import dev.spool.broker.metadata.MetadataManager;
import dev.spool.broker.security.acl.AclBinding;
import dev.spool.broker.security.acl.AclChanges;
import dev.spool.broker.security.acl.AclFilter;
import dev.spool.broker.security.acl.AclOperation;
import dev.spool.broker.security.acl.AclPermission;
import dev.spool.broker.security.acl.Authorizer;
import dev.spool.broker.security.acl.PatternType;
import dev.spool.broker.security.acl.ResourceType;
import dev.spool.protocol.Errors;
import dev.spool.protocol.message.ApiKey;
import dev.spool.protocol.message.CreateAclsRequestData;
import dev.spool.protocol.message.CreateAclsResponseData;
import dev.spool.protocol.message.CreateAclsResponseData.AclCreationResult;
import dev.spool.protocol.message.DeleteAclsRequestData;
import dev.spool.protocol.message.DeleteAclsResponseData;
import dev.spool.protocol.message.DeleteAclsResponseData.DeleteAclsFilterResult;
import dev.spool.protocol.message.DescribeAclsRequestData;
import dev.spool.protocol.message.DescribeAclsResponseData;
import dev.spool.protocol.message.DescribeAclsResponseData.AclDescription;
import dev.spool.protocol.message.DescribeAclsResponseData.DescribeAclsResource;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * CreateAcls and DeleteAcls (v1-3; decided by the active controller, forwarded to it from other nodes) and
 * DescribeAcls (v1-3, answered from this node's metadata image): what {@code kafka-acls --add/--remove/--list}
 * send. Without an authorizer they answer SECURITY_DISABLED, as Kafka's broker does. Thread-safe.
 */
public final class AclsHandler implements ApiFamily {

    private static final String NO_AUTHORIZER = "No Authorizer is configured.";

    private final MetadataManager metadata;
    private final Authorizer authorizer;

    public AclsHandler(MetadataManager metadata, Authorizer authorizer) {
        this.metadata = metadata;
        this.authorizer = authorizer;
    }

    @Override
    public void registerIn(ApiRegistry registry) {
        registry.register(ApiKey.CREATE_ACLS, 1, 3, CreateAclsRequestData.class, (context, request) -> create(request))
                .register(ApiKey.DELETE_ACLS, 1, 3, DeleteAclsRequestData.class, (context, request) -> delete(request))
                .register(ApiKey.DESCRIBE_ACLS, 1, 3, DescribeAclsRequestData.class,
                        (context, request) -> CompletableFuture.completedFuture(describe(request)));
    }

    private CompletableFuture<CreateAclsResponseData> create(CreateAclsRequestData request) {
        if (!authorizer.enabled()) {
            List<AclCreationResult> results = new ArrayList<>();
            request.creations().forEach(creation -> results.add(new AclCreationResult()
                    .setErrorCode(Errors.SECURITY_DISABLED.code()).setErrorMessage(NO_AUTHORIZER)));
            return CompletableFuture.completedFuture(new CreateAclsResponseData().setResults(results));
        }
        return metadata.submit(image -> AclChanges.create(image, request))
                .thenApply(results -> new CreateAclsResponseData().setResults(results));
    }

    private CompletableFuture<DeleteAclsResponseData> delete(DeleteAclsRequestData request) {
        if (!authorizer.enabled()) {
            List<DeleteAclsFilterResult> results = new ArrayList<>();
            request.filters().forEach(filter -> results.add(new DeleteAclsFilterResult()
                    .setErrorCode(Errors.SECURITY_DISABLED.code()).setErrorMessage(NO_AUTHORIZER)
                    .setMatchingAcls(new ArrayList<>())));
            return CompletableFuture.completedFuture(new DeleteAclsResponseData().setFilterResults(results));
        }
        return metadata.submit(image -> AclChanges.delete(image, request))
                .thenApply(results -> new DeleteAclsResponseData().setFilterResults(results));
    }

    /** The ACLs the filter matches, grouped by resource pattern as Kafka groups them. */
    DescribeAclsResponseData describe(DescribeAclsRequestData request) {
        if (!authorizer.enabled()) {
            return new DescribeAclsResponseData().setErrorCode(Errors.SECURITY_DISABLED.code())
                    .setErrorMessage(NO_AUTHORIZER);
        }
        AclFilter filter = new AclFilter(ResourceType.forCode(request.resourceTypeFilter()),
                request.resourceNameFilter(), PatternType.forCode(request.patternTypeFilter()),
                request.principalFilter(), request.hostFilter(), AclOperation.forCode(request.operation()),
                AclPermission.forCode(request.permissionType()));
        if (filter.hasUnknown()) {
            return new DescribeAclsResponseData().setErrorCode(Errors.INVALID_REQUEST.code())
                    .setErrorMessage("The filter has an unknown resource type, pattern type, operation or permission");
        }
        return new DescribeAclsResponseData().setErrorCode(Errors.NONE.code()).setResources(matching(metadata.image(),
                filter));
    }

    private static List<DescribeAclsResource> matching(MetadataImage image, AclFilter filter) {
        Map<List<Object>, DescribeAclsResource> byPattern = new LinkedHashMap<>();
        for (AclBinding acl : image.acls().values()) {
            if (!filter.matches(acl)) {
                continue;
            }
            byPattern.computeIfAbsent(List.of(acl.resourceType(), acl.resourceName(), acl.patternType()),
                    pattern -> new DescribeAclsResource().setResourceType(acl.resourceType().code)
                            .setResourceName(acl.resourceName()).setPatternType(acl.patternType().code)
                            .setAcls(new ArrayList<>()))
                    .acls().add(new AclDescription().setPrincipal(acl.principal()).setHost(acl.host())
                            .setOperation(acl.operation().code).setPermissionType(acl.permission().code));
        }
        return new ArrayList<>(byPattern.values());
    }
}
