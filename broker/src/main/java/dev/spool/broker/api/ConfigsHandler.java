package dev.spool.broker.api;

import dev.spool.broker.config.ConfigController;
import dev.spool.broker.config.ConfigController.Outcome;
import dev.spool.broker.config.ConfigDescriber;
import dev.spool.broker.metadata.ConfigResource;
import dev.spool.broker.metadata.MetadataImage;
import dev.spool.broker.metadata.MetadataManager;
import dev.spool.broker.security.acl.AclOperation;
import dev.spool.protocol.Errors;
import dev.spool.protocol.message.AlterConfigsRequestData;
import dev.spool.protocol.message.AlterConfigsResponseData;
import dev.spool.protocol.message.ApiKey;
import dev.spool.protocol.message.DescribeConfigsRequestData;
import dev.spool.protocol.message.DescribeConfigsRequestData.DescribeConfigsResource;
import dev.spool.protocol.message.DescribeConfigsResponseData;
import dev.spool.protocol.message.IncrementalAlterConfigsRequestData;
import dev.spool.protocol.message.IncrementalAlterConfigsResponseData;
import dev.spool.protocol.types.Message;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * DescribeConfigs (answered from the current metadata image by the {@link ConfigDescriber}),
 * IncrementalAlterConfigs and AlterConfigs (commands of the {@link MetadataManager}, decided by the
 * {@link ConfigController}, answered once their ConfigRecords are durable and applied). Thread-safe.
 */
public final class ConfigsHandler implements ApiFamily {

    private final MetadataManager metadata;
    private final ConfigDescriber describer;
    private final ConfigController controller;

    public ConfigsHandler(MetadataManager metadata, ConfigDescriber describer, ConfigController controller) {
        this.metadata = metadata;
        this.describer = describer;
        this.controller = controller;
    }

    @Override
    public void registerIn(ApiRegistry registry) {
        registry.register(ApiKey.DESCRIBE_CONFIGS, 1, 4, DescribeConfigsRequestData.class,
                        (context, request) -> CompletableFuture.completedFuture(describe(request, context.access())))
                .register(ApiKey.INCREMENTAL_ALTER_CONFIGS, 0, 1, IncrementalAlterConfigsRequestData.class,
                        (context, request) -> incrementalAlter(request))
                .register(ApiKey.ALTER_CONFIGS, 0, 2, AlterConfigsRequestData.class, (context, request) -> alter(request));
    }

    /** A topic's configs take DESCRIBE_CONFIGS on the topic, a broker's (and its loggers') on the cluster. */
    private Message describe(DescribeConfigsRequestData request, Access access) {
        MetadataImage image = metadata.image();
        DescribeConfigsResponseData response = new DescribeConfigsResponseData().setResults(new ArrayList<>());
        for (DescribeConfigsResource resource : request.resources()) {
            boolean topic = resource.resourceType() == ConfigResource.TOPIC;
            if (topic ? !access.allowsTopic(AclOperation.DESCRIBE_CONFIGS, resource.resourceName())
                    : !access.allowsOnCluster(AclOperation.DESCRIBE_CONFIGS)) {
                Errors refusal = topic ? Errors.TOPIC_AUTHORIZATION_FAILED : Errors.CLUSTER_AUTHORIZATION_FAILED;
                response.results().add(new DescribeConfigsResponseData.DescribeConfigsResult()
                        .setResourceType(resource.resourceType()).setResourceName(resource.resourceName())
                        .setErrorCode(refusal.code()).setErrorMessage("Authorization failed.")
                        .setConfigs(new ArrayList<>()));
                continue;
            }
            response.results().add(describer.describe(image, resource, request.includeSynonyms(),
                    request.includeDocumentation()));
        }
        return response;
    }

    private CompletableFuture<Message> incrementalAlter(IncrementalAlterConfigsRequestData request) {
        return metadata.submit(image -> controller.incrementalAlter(image, request)).thenApply(outcomes -> {
            List<IncrementalAlterConfigsResponseData.AlterConfigsResourceResponse> responses = new ArrayList<>();
            for (Outcome outcome : outcomes) {
                responses.add(new IncrementalAlterConfigsResponseData.AlterConfigsResourceResponse()
                        .setResourceType(outcome.resourceType()).setResourceName(outcome.resourceName())
                        .setErrorCode(outcome.error().code()).setErrorMessage(outcome.message()));
            }
            return new IncrementalAlterConfigsResponseData().setResponses(responses);
        });
    }

    private CompletableFuture<Message> alter(AlterConfigsRequestData request) {
        return metadata.submit(image -> controller.alter(image, request)).thenApply(outcomes -> {
            List<AlterConfigsResponseData.AlterConfigsResourceResponse> responses = new ArrayList<>();
            for (Outcome outcome : outcomes) {
                responses.add(new AlterConfigsResponseData.AlterConfigsResourceResponse()
                        .setResourceType(outcome.resourceType()).setResourceName(outcome.resourceName())
                        .setErrorCode(outcome.error().code()).setErrorMessage(outcome.message()));
            }
            return new AlterConfigsResponseData().setResponses(responses);
        });
    }
}
