# A unit that follows every rule: each test breaks one thing of it and expects that rule's message.
package main

import rego.v1

labels := {"app.kubernetes.io/name": "orders", "app.kubernetes.io/part-of": "shop", "shop.example.com/team": "orders"}

good_container := {
	"name": "orders",
	"image": "registry.example.com/shop/orders:0.1.0",
	"ports": [{"name": "http", "containerPort": 3002}],
	"resources": {
		"requests": {"cpu": "100m", "memory": "128Mi", "ephemeral-storage": "64Mi"},
		"limits": {"cpu": "1", "memory": "256Mi", "ephemeral-storage": "128Mi"},
	},
	"securityContext": {
		"allowPrivilegeEscalation": false,
		"capabilities": {"drop": ["ALL"]},
		"readOnlyRootFilesystem": true,
	},
}

good_pod := {
	"serviceAccountName": "orders",
	"automountServiceAccountToken": false,
	"securityContext": {
		"runAsNonRoot": true,
		"runAsUser": 10001,
		"runAsGroup": 10001,
		"fsGroup": 10001,
		"seccompProfile": {"type": "RuntimeDefault"},
	},
	"affinity": {"podAntiAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [{
		"weight": 100,
		"podAffinityTerm": {
			"topologyKey": "kubernetes.io/hostname",
			"labelSelector": {"matchLabels": {"app.kubernetes.io/name": "orders"}},
		},
	}]}},
	"volumes": [{"name": "tmp", "emptyDir": {"sizeLimit": "64Mi"}}],
	"containers": [good_container],
}

deployment_with(pod) := {
	"apiVersion": "apps/v1",
	"kind": "Deployment",
	"metadata": {"name": "orders", "namespace": "shop", "labels": labels},
	"spec": {
		"selector": {"matchLabels": {"app.kubernetes.io/name": "orders"}},
		"template": {"metadata": {"labels": labels}, "spec": pod},
	},
}

good_hpa := {
	"apiVersion": "autoscaling/v2",
	"kind": "HorizontalPodAutoscaler",
	"metadata": {"name": "orders", "namespace": "shop", "labels": labels},
	"spec": {
		"scaleTargetRef": {"apiVersion": "apps/v1", "kind": "Deployment", "name": "orders"},
		"minReplicas": 2,
		"maxReplicas": 4,
	},
}

good_budget := {
	"apiVersion": "policy/v1",
	"kind": "PodDisruptionBudget",
	"metadata": {"name": "orders", "namespace": "shop", "labels": labels},
	"spec": {"maxUnavailable": 1, "selector": {"matchLabels": {"app.kubernetes.io/name": "orders"}}},
}

good_service := {
	"apiVersion": "v1",
	"kind": "Service",
	"metadata": {"name": "orders", "namespace": "shop", "labels": labels},
	"spec": {"selector": {"app.kubernetes.io/name": "orders"}, "ports": [{"port": 3002, "targetPort": "http"}]},
}

good_account := {
	"apiVersion": "v1",
	"kind": "ServiceAccount",
	"metadata": {"name": "orders", "namespace": "shop", "labels": labels},
	"automountServiceAccountToken": false,
}

good_policy := {
	"apiVersion": "networking.k8s.io/v1",
	"kind": "NetworkPolicy",
	"metadata": {"name": "orders", "namespace": "shop", "labels": labels},
	"spec": {
		"podSelector": {"matchLabels": {"app.kubernetes.io/name": "orders"}},
		"policyTypes": ["Ingress", "Egress"],
	},
}

# The good unit with objects replaced, by kind: a whole object (one with a kind) takes the good one's
# place, anything else is merged into it.
unit_with(replaced) := [{"path": "-", "contents": [replaced_object(good, replaced) |
	some good in [deployment_with(good_pod), good_hpa, good_budget, good_service, good_account, good_policy]
]}]

replaced_object(good, replaced) := replaced[good.kind] if replaced[good.kind].kind

replaced_object(good, replaced) := object.union(good, object.get(replaced, good.kind, {})) if not replaced[good.kind].kind

# The unit as it is, and a unit in a file of its own per object (conftest's input for separate files).
test_the_good_unit_passes if {
	count(deny) == 0 with input as unit_with({})
}

test_objects_from_separate_files_are_read_alike if {
	count(deny) == 0 with input as [{"path": sprintf("%d.yaml", [i]), "contents": o} |
		some i, o in unit_with({})[0].contents
	]
}

pod_with(patch) := {"Deployment": deployment_with(object.union(good_pod, patch))}

container_with(patch) := pod_with({"containers": [object.union(good_container, patch)]})

# object.union merges deeply: taking a field away needs json.remove.
pod_without(paths) := {"Deployment": deployment_with(json.remove(good_pod, paths))}

container_without(paths) := pod_with({"containers": [json.remove(good_container, paths)]})

denies(replaced, message) if message in deny with input as unit_with(replaced)

test_a_missing_limit if {
	denies(
		container_without(["resources/limits/ephemeral-storage"]),
		"Deployment/orders container orders: no ephemeral-storage in resources.limits",
	)
}

test_an_unbounded_empty_dir if {
	denies(pod_with({"volumes": [{"name": "tmp", "emptyDir": {}}]}), "Deployment/orders: emptyDir tmp has no sizeLimit")
}

test_empty_dirs_larger_than_the_storage_limit if {
	denies(
		pod_with({"volumes": [{"name": "tmp", "emptyDir": {"sizeLimit": "100Mi"}}, {"name": "cache", "emptyDir": {"sizeLimit": "100Mi"}}]}),
		"Deployment/orders container orders: ephemeral-storage limit 128Mi is less than its emptyDir volumes' 209715200 bytes",
	)
}

test_a_privileged_escalation if {
	denies(
		container_with({"securityContext": {"allowPrivilegeEscalation": true, "capabilities": {"drop": ["ALL"]}, "readOnlyRootFilesystem": true}}),
		"Deployment/orders container orders: not restricted: needs allowPrivilegeEscalation false",
	)
}

test_root if {
	denies(
		pod_with({"securityContext": {"runAsNonRoot": true, "runAsUser": 0, "runAsGroup": 10001, "fsGroup": 10001, "seccompProfile": {"type": "RuntimeDefault"}}}),
		"Deployment/orders container orders: not restricted: needs runAsUser 10001 (numeric, so the kubelet can check runAsNonRoot)",
	)
}

test_a_writable_root if {
	denies(
		container_without(["securityContext/readOnlyRootFilesystem"]),
		"Deployment/orders container orders: not restricted: needs readOnlyRootFilesystem",
	)
}

test_a_container_overriding_the_pod_user if {
	denies(
		container_with({"securityContext": {"runAsUser": 1000, "allowPrivilegeEscalation": false, "capabilities": {"drop": ["ALL"]}, "readOnlyRootFilesystem": true}}),
		"Deployment/orders container orders: not restricted: needs runAsUser 10001 (numeric, so the kubelet can check runAsNonRoot)",
	)
}

test_an_unpinned_image if {
	denies(container_with({"image": "mongo:8.0"}), "Deployment/orders container orders: image mongo:8.0 is not pinned to a full x.y.z version or a digest")
}

test_a_latest_image if {
	denies(container_with({"image": "registry.example.com/shop/orders:latest"}), "Deployment/orders container orders: image registry.example.com/shop/orders:latest is not pinned to a full x.y.z version or a digest")
}

test_another_units_image if {
	denies(container_with({"image": "registry.example.com/shop/users:0.1.0"}), "Deployment/orders container orders: image registry.example.com/shop/users:0.1.0 is not this unit's (orders)")
}

test_a_digest_is_pinned if {
	pinned("nats@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef")
	pinned("mongo:8.0.17")
	pinned("nginx:1.29.3-alpine")
	not pinned("nginx:1.29-alpine")
}

test_the_default_service_account if {
	denies(pod_with({"serviceAccountName": "default"}), "Deployment/orders: runs as ServiceAccount default, not its own (orders)")
}

test_a_mounted_token if {
	denies(pod_with({"automountServiceAccountToken": true}), "Deployment/orders: the pod mounts an API token (automountServiceAccountToken is not false)")
}

test_an_account_that_mounts_a_token if {
	denies({"ServiceAccount": {"automountServiceAccountToken": true}}, "ServiceAccount/orders: mounts an API token (automountServiceAccountToken is not false)")
}

test_an_account_that_is_not_there if {
	denies({"ServiceAccount": {"metadata": {"name": "orders-old"}}}, "Deployment/orders: no ServiceAccount orders beside it")
}

test_no_anti_affinity if {
	denies(pod_without(["affinity"]), "Deployment/orders: no pod anti-affinity on kubernetes.io/hostname selecting its own pods")
}

test_an_anti_affinity_selecting_other_pods if {
	denies(
		{"Deployment": deployment_with(object.union(json.remove(good_pod, ["affinity"]), {"affinity": {"podAntiAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [{"topologyKey": "kubernetes.io/hostname", "labelSelector": {"matchLabels": {"app.kubernetes.io/name": "users"}}}]}}}))},
		"Deployment/orders: no pod anti-affinity on kubernetes.io/hostname selecting its own pods",
	)
}

test_fixed_replicas if {
	denies({"Deployment": object.union(deployment_with(good_pod), {"spec": {"replicas": 3}})}, "Deployment/orders: sets replicas, which the HPA owns")
}

test_no_hpa if {
	denies({"HorizontalPodAutoscaler": {"spec": {"scaleTargetRef": {"name": "users"}}}}, "Deployment/orders: scaled by 0 HorizontalPodAutoscalers, not one")
}

test_one_replica if {
	denies({"HorizontalPodAutoscaler": {"spec": {"minReplicas": 1}}}, "HorizontalPodAutoscaler/orders: minReplicas below 2: one pod is no replica")
}

test_an_old_hpa if {
	denies({"HorizontalPodAutoscaler": {"apiVersion": "autoscaling/v1"}}, "HorizontalPodAutoscaler/orders: not autoscaling/v2")
}

test_no_room_to_scale if {
	denies({"HorizontalPodAutoscaler": {"spec": {"maxReplicas": 2}}}, "HorizontalPodAutoscaler/orders: maxReplicas not above minReplicas")
}

test_no_budget if {
	denies({"PodDisruptionBudget": {"spec": {"selector": {"matchLabels": {"app.kubernetes.io/name": "users"}}}}}, "Deployment/orders: no PodDisruptionBudget selects its pods")
}

test_a_budget_that_blocks_drains if {
	denies({"PodDisruptionBudget": {"spec": {"maxUnavailable": 0}}}, "PodDisruptionBudget/orders: maxUnavailable is not 1")
}

test_a_service_selecting_nothing if {
	denies({"Service": {"spec": {"selector": {"app.kubernetes.io/name": "order"}}}}, "Service/orders: selects no pods")
}

test_a_service_targeting_an_undeclared_port if {
	denies({"Service": {"spec": {"ports": [{"port": 3002, "targetPort": "metrics"}]}}}, "Service/orders: port 3002 targets metrics, which no container of its pods declares")
}

test_a_service_targeting_a_declared_number if {
	not "Service/orders: port 80 targets 3002, which no container of its pods declares" in deny with input as unit_with({"Service": {"spec": {"ports": [{"port": 80, "targetPort": 3002}]}}})
}

test_traffic_limited_one_way_only if {
	denies({"NetworkPolicy": {"spec": {"policyTypes": ["Ingress"]}}}, "Deployment/orders: no NetworkPolicy of its own limits its Egress")
}

test_an_object_outside_the_namespace if {
	denies({"Service": {"metadata": {"namespace": "default"}}}, "Service/orders: not in the shop namespace")
}

test_an_object_without_the_shop_label if {
	denies({"PodDisruptionBudget": {"metadata": {"labels": {"app.kubernetes.io/part-of": "other"}}}}, "PodDisruptionBudget/orders: no label app.kubernetes.io/part-of=shop")
}

test_an_object_of_no_team if {
	denies({"PodDisruptionBudget": {"metadata": {"labels": {"shop.example.com/team": ""}}}}, "PodDisruptionBudget/orders: no label shop.example.com/team naming the team that deploys it")
}

test_pods_without_the_shop_label if {
	denies(
		{"Deployment": object.union(deployment_with(good_pod), {"spec": {"template": {"metadata": {"labels": {"app.kubernetes.io/part-of": "other"}}}}})},
		"Deployment/orders: its pods have no label app.kubernetes.io/part-of=shop",
	)
}

test_another_namespace_object if {
	"Namespace/default: a namespace other than shop" in deny with input as [{"path": "-", "contents": {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "default", "labels": labels}}}]
}

# Server defaults written out (server-defaults.rego).

test_a_network_policy_port_without_its_protocol if {
	denies(
		{"NetworkPolicy": object.union(good_policy, {"spec": {"ingress": [{"ports": [{"port": "http"}]}]}})},
		"NetworkPolicy/orders: a port of its ingress rules names no protocol (the server adds TCP)",
	)
}

test_a_field_ref_without_its_api_version if {
	denies(
		container_with({"env": [{"name": "POD_NAME", "valueFrom": {"fieldRef": {"fieldPath": "metadata.name"}}}]}),
		"Deployment/orders: fieldRef at spec.containers.0.env.0.valueFrom names no apiVersion (the server adds v1)",
	)
}

claim_template := {
	"apiVersion": "v1",
	"kind": "PersistentVolumeClaim",
	"metadata": {"name": "data"},
	"spec": {"accessModes": ["ReadWriteOnce"], "volumeMode": "Filesystem", "resources": {"requests": {"storage": "1Gi"}}},
	"status": {"phase": "Pending"},
}

with_claim_template(claim) := {"Deployment": object.union(
	deployment_with(good_pod),
	{"spec": {"volumeClaimTemplates": [claim]}},
)}

test_a_claim_template_as_the_server_stores_it_passes if {
	not any_default_refusal(with_claim_template(claim_template))
}

any_default_refusal(replaced) if {
	some message in deny with input as unit_with(replaced)
	contains(message, "the server adds")
}

test_a_claim_template_without_what_the_server_adds if {
	denies(
		with_claim_template(json.remove(claim_template, ["kind"])),
		"Deployment/orders: volumeClaimTemplate data has no kind: PersistentVolumeClaim (the server adds it)",
	)
	denies(
		with_claim_template(json.remove(claim_template, ["spec/volumeMode"])),
		"Deployment/orders: volumeClaimTemplate data has no spec.volumeMode (the server adds Filesystem)",
	)
}

test_an_empty_egress_list if {
	denies(
		{"NetworkPolicy": object.union(good_policy, {"spec": {"egress": []}})},
		"NetworkPolicy/orders: an empty egress list (the server stores none; leave it out)",
	)
}

test_a_claim_template_without_its_status_phase if {
	denies(
		with_claim_template(json.remove(claim_template, ["status"])),
		"Deployment/orders: volumeClaimTemplate data has no status.phase: Pending (the server adds it)",
	)
}
