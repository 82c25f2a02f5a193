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

# Another unit made of the good one: every "orders" in it renamed (its names, labels and image), with
# objects added.
renamed_unit(name, replaced, added) := [{"path": "-", "contents": array.concat(
	json.unmarshal(replace(json.marshal(unit_with(replaced)[0].contents), "orders", name)),
	added,
)}]

# The users service (users.rego): the good unit as users, with the service's settings and Secrets.

users_secret(name) := {"name": name, "valueFrom": {"secretKeyRef": {"name": "users-secrets", "key": name}}}

users_secrets := [users_secret("JWT_PRIVATE_KEY"), users_secret("ADMIN_EMAIL"), users_secret("ADMIN_PASSWORD")]

smtp_url := {"name": "SMTP_URL", "valueFrom": {"secretKeyRef": {"name": "users-secrets", "key": "SMTP_URL", "optional": true}}}

# Its way out to the mail relay, wherever that is (network.rego).
smtp_egress := {
	"to": [{"ipBlock": {"cidr": "0.0.0.0/0"}}, {"ipBlock": {"cidr": "::/0"}}],
	"ports": [{"protocol": "TCP", "port": 587}, {"protocol": "TCP", "port": 465}, {"protocol": "TCP", "port": 25}],
}

good_users_config := {
	"apiVersion": "v1",
	"kind": "ConfigMap",
	"metadata": {
		"name": "users-config-5h7k2m",
		"namespace": "shop",
		"labels": {"app.kubernetes.io/part-of": "shop", "shop.example.com/team": "users"},
	},
	"data": {"NODE_ENV": "production", "MAIL_OUTBOX_DIR": "/tmp/outbox"},
}

good_users_container := object.union(good_container, {
	"envFrom": [{"configMapRef": {"name": "users-config-5h7k2m"}}],
	"env": array.concat(users_secrets, [smtp_url]),
	"volumeMounts": [{"name": "tmp", "mountPath": "/tmp"}],
})

users_unit_reaching(container_patch, config, egress) := renamed_unit(
	"users",
	object.union(pod_with({"containers": [object.union(good_users_container, container_patch)]}), {"NetworkPolicy": {"spec": {"egress": egress}}}),
	[config],
)

users_unit(container_patch, config) := users_unit_reaching(container_patch, config, [smtp_egress])

users_denies(container_patch, config, message) if message in deny with input as users_unit(container_patch, config)

test_the_good_users_unit_passes if {
	count(deny) == 0 with input as users_unit({}, good_users_config)
}

test_an_optional_admin_password if {
	users_denies(
		{"env": [users_secret("JWT_PRIVATE_KEY"), users_secret("ADMIN_EMAIL"), object.union(users_secret("ADMIN_PASSWORD"), {"valueFrom": {"secretKeyRef": {"optional": true}}})]},
		good_users_config,
		"Deployment/users container users: ADMIN_PASSWORD must not be optional: the service refuses to start without it",
	)
}

test_a_signing_key_from_another_secret if {
	users_denies(
		{"env": [object.union(users_secret("JWT_PRIVATE_KEY"), {"valueFrom": {"secretKeyRef": {"name": "jwt-keys"}}}), users_secret("ADMIN_EMAIL"), users_secret("ADMIN_PASSWORD")]},
		good_users_config,
		"Deployment/users container users: JWT_PRIVATE_KEY does not come from the Secret users-secrets (key JWT_PRIVATE_KEY)",
	)
}

test_no_admin_email if {
	users_denies(
		{"env": [users_secret("JWT_PRIVATE_KEY"), users_secret("ADMIN_PASSWORD")]},
		good_users_config,
		"Deployment/users container users: ADMIN_EMAIL does not come from the Secret users-secrets (key ADMIN_EMAIL)",
	)
}

test_a_secret_in_the_users_config if {
	users_denies(
		{},
		object.union(good_users_config, {"data": {"ADMIN_PASSWORD": "admin-password-123"}}),
		"ConfigMap/users-config-5h7k2m: holds ADMIN_PASSWORD, a secret the users service takes from a Secret",
	)
}

test_users_settings_from_a_config_map_without_a_hash if {
	users_denies(
		{"envFrom": [{"configMapRef": {"name": "users-config"}}]},
		object.union(good_users_config, {"metadata": {"name": "users-config"}}),
		"Deployment/users: takes its settings from no ConfigMap users-config-<hash> beside it",
	)
}

test_no_mail_outbox if {
	users_denies(
		{},
		json.remove(good_users_config, ["data/MAIL_OUTBOX_DIR"]),
		"Deployment/users: ConfigMap/users-config-5h7k2m sets no MAIL_OUTBOX_DIR, where the service writes mail without SMTP_URL",
	)
}

test_the_mail_outbox_on_the_read_only_root if {
	users_denies(
		{},
		object.union(good_users_config, {"data": {"MAIL_OUTBOX_DIR": "/var/mail/outbox"}}),
		"Deployment/users container users: MAIL_OUTBOX_DIR /var/mail/outbox lies in no emptyDir (the root filesystem is read-only)",
	)
}

# /tmp is an emptyDir, but /tmp/outbox itself a ConfigMap's volume (read-only): the deepest mount counts.
test_the_mail_outbox_on_a_config_map_inside_the_empty_dir if {
	"Deployment/users container users: MAIL_OUTBOX_DIR /tmp/outbox lies in no emptyDir (the root filesystem is read-only)" in deny with input as renamed_unit(
		"users",
		pod_with({
			"containers": [object.union(good_users_container, {"volumeMounts": [{"name": "tmp", "mountPath": "/tmp"}, {"name": "outbox", "mountPath": "/tmp/outbox"}]})],
			"volumes": [{"name": "tmp", "emptyDir": {"sizeLimit": "64Mi"}}, {"name": "outbox", "configMap": {"name": "outbox"}}],
		}),
		[good_users_config],
	)
}

test_smtp_url_required if {
	users_denies(
		{"env": array.concat(users_secrets, [json.remove(smtp_url, ["valueFrom/secretKeyRef/optional"])])},
		good_users_config,
		"Deployment/users container users: SMTP_URL does not come, optional, from the Secret users-secrets (key SMTP_URL)",
	)
}

test_smtp_url_written_in_the_manifest if {
	users_denies(
		{"env": array.concat(users_secrets, [{"name": "SMTP_URL", "value": "smtp://user:pass@relay:587"}])},
		good_users_config,
		"Deployment/users container users: SMTP_URL does not come, optional, from the Secret users-secrets (key SMTP_URL)",
	)
}

relay_message := "Deployment/users: does not reach outside the cluster by one egress rule to any address (0.0.0.0/0 and ::/0) on the SMTP ports 25, 465 and 587 over TCP, where its mail relay listens"

test_users_not_let_out_to_the_relay if {
	relay_message in deny with input as users_unit_reaching({}, good_users_config, [{"to": [pods_named("mongodb")], "ports": [{"protocol": "TCP", "port": "mongodb"}]}])
}

test_users_let_out_on_another_port if {
	relay_message in deny with input as users_unit_reaching({}, good_users_config, [object.union(smtp_egress, {"ports": [{"protocol": "TCP", "port": 2525}]})])
}

test_users_let_out_by_two_rules if {
	relay_message in deny with input as users_unit_reaching({}, good_users_config, [smtp_egress, {"to": [{"ipBlock": {"cidr": "10.0.0.0/8"}}], "ports": [{"protocol": "TCP", "port": 443}]}])
}

test_another_unit_let_out_of_the_cluster if {
	denies(
		{"NetworkPolicy": object.union(good_policy, {"spec": {"egress": [{"to": [{"ipBlock": {"cidr": "0.0.0.0/0"}}], "ports": [{"protocol": "TCP", "port": 25}]}]}})},
		"NetworkPolicy/orders: lets its pods out of the cluster (ipBlock): only the users service reaches outside, to its mail relay",
	)
}

test_a_users_unit_without_its_deployment if {
	"the unit users has no Deployment users" in deny with input as renamed_unit("users", {"Deployment": {"metadata": {"name": "accounts"}}}, [])
}

# Kong (kong.rego): the good unit as kong, its proxy on 8000 behind port 80 of a LoadBalancer.

kong_unit(replaced, added) := renamed_unit(
	"kong",
	object.union(
		object.union(container_with({"ports": [{"name": "proxy", "containerPort": 8000}]}), {
			"Service": {"spec": {"type": "LoadBalancer", "ports": [{"port": 80, "targetPort": "proxy"}]}},
			"NetworkPolicy": {"spec": {"ingress": [{"ports": [{"protocol": "TCP", "port": "proxy"}]}]}},
		}),
		replaced,
	),
	added,
)

kong_denies(replaced, message) if message in deny with input as kong_unit(replaced, [])

kong_edge := {
	"apiVersion": "networking.k8s.io/v1",
	"kind": "Ingress",
	"metadata": {"name": "edge", "namespace": "shop", "labels": object.union(labels, {"app.kubernetes.io/name": "kong"})},
	"spec": {"rules": [{"http": {"paths": [{"path": "/", "pathType": "Prefix", "backend": {"service": {"name": "kong", "port": {"number": 80}}}}]}}]},
}

test_the_good_kong_unit_passes if {
	count(deny) == 0 with input as kong_unit({}, [])
}

test_kong_behind_a_cluster_ip if {
	kong_denies({"Service": {"spec": {"type": "ClusterIP"}}}, "Service/kong: type ClusterIP, not LoadBalancer: nothing outside the cluster reaches Kong's proxy")
}

test_kong_behind_a_cluster_ip_and_an_ingress_passes if {
	count(deny) == 0 with input as kong_unit({"Service": {"spec": {"type": "ClusterIP"}}}, [kong_edge])
}

test_kong_on_another_port if {
	kong_denies({"Service": {"spec": {"ports": [{"port": 8080, "targetPort": "proxy"}]}}}, "Service/kong: its first port is not 80 to the port proxy")
}

test_the_kong_proxy_on_another_port if {
	kong_denies(
		{"Deployment": {"spec": {"template": {"spec": {"containers": [object.union(good_container, {"ports": [{"name": "proxy", "containerPort": 8443}]})]}}}}},
		"Deployment/kong container kong: its port proxy is not 8000, where Kong's proxy listens",
	)
}

test_kong_without_its_service if {
	kong_denies({"Service": {"metadata": {"name": "gateway"}}}, "Deployment/kong: no Service kong in front of it")
}

test_kong_status_port_open_to_anyone if {
	kong_denies(
		{"NetworkPolicy": {"spec": {"ingress": [{"ports": [{"protocol": "TCP", "port": "proxy"}, {"protocol": "TCP", "port": "status"}]}]}}},
		`Deployment/kong: its NetworkPolicy's ingress is [{"ports": [{"port": "proxy", "protocol": "TCP"}, {"port": "status", "protocol": "TCP"}]}], not anyone on the port proxy only`,
	)
}

test_kong_proxy_for_some_pods_only if {
	kong_denies(
		{"NetworkPolicy": {"spec": {"ingress": [{"from": [pods_named("shell")], "ports": [{"protocol": "TCP", "port": "proxy"}]}]}}},
		`Deployment/kong: its NetworkPolicy's ingress is [{"from": [{"podSelector": {"matchLabels": {"app.kubernetes.io/name": "shell"}}}], "ports": [{"port": "proxy", "protocol": "TCP"}]}], not anyone on the port proxy only`,
	)
}

test_kong_admitting_no_one if {
	kong_denies(
		{"NetworkPolicy": {"spec": {"ingress": []}}},
		"Deployment/kong: its NetworkPolicy's ingress is [], not anyone on the port proxy only",
	)
}

test_a_kong_unit_without_its_deployment if {
	kong_denies({"Deployment": {"metadata": {"name": "gateway"}}}, "the unit kong has no Deployment kong")
}

# The namespace unit (network.rego): default-deny and allow-dns.

platform_labels := {"app.kubernetes.io/part-of": "shop", "shop.example.com/team": "platform"}

shop_namespace := {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "shop", "labels": platform_labels}}

default_deny := {
	"apiVersion": "networking.k8s.io/v1",
	"kind": "NetworkPolicy",
	"metadata": {"name": "default-deny", "namespace": "shop", "labels": platform_labels},
	"spec": {"podSelector": {}, "policyTypes": ["Ingress", "Egress"]},
}

dns_peer := {
	"namespaceSelector": {"matchLabels": {"kubernetes.io/metadata.name": "kube-system"}},
	"podSelector": {"matchLabels": {"k8s-app": "kube-dns"}},
}

allow_dns := {
	"apiVersion": "networking.k8s.io/v1",
	"kind": "NetworkPolicy",
	"metadata": {"name": "allow-dns", "namespace": "shop", "labels": platform_labels},
	"spec": {
		"podSelector": {},
		"policyTypes": ["Egress"],
		"egress": [{"to": [dns_peer], "ports": [{"protocol": "UDP", "port": 53}, {"protocol": "TCP", "port": 53}]}],
	},
}

# The namespace unit with objects changed, by name (merged into the good one).
namespace_unit(changed) := [{"path": "-", "contents": [object.union(good, object.get(changed, good.metadata.name, {})) |
	some good in [shop_namespace, default_deny, allow_dns]
]}]

namespace_denies(changed, message) if message in deny with input as namespace_unit(changed)

test_the_good_namespace_unit_passes if {
	count(deny) == 0 with input as namespace_unit({})
}

test_a_default_deny_admitting_everything if {
	namespace_denies({"default-deny": {"spec": {"ingress": [{}]}}}, "NetworkPolicy/default-deny: admits traffic: a default deny has no ingress rule")
}

test_a_default_deny_letting_everything_out if {
	namespace_denies({"default-deny": {"spec": {"egress": [{}]}}}, "NetworkPolicy/default-deny: lets traffic out: a default deny has no egress rule")
}

test_a_default_deny_of_some_pods if {
	namespace_denies({"default-deny": {"spec": {"podSelector": {"matchLabels": {"app.kubernetes.io/name": "orders"}}}}}, "NetworkPolicy/default-deny: selects not every pod (its podSelector is not {})")
}

test_a_default_deny_of_ingress_only if {
	namespace_denies({"default-deny": {"spec": {"policyTypes": ["Ingress"]}}}, "NetworkPolicy/default-deny: does not deny both ways (its policyTypes are not Ingress and Egress)")
}

test_no_default_deny if {
	"Namespace/shop: no NetworkPolicy default-deny beside it" in deny with input as [{"path": "-", "contents": [shop_namespace, allow_dns]}]
}

test_dns_also_letting_https_out if {
	namespace_denies(
		{"allow-dns": {"spec": {"egress": [{"to": [dns_peer], "ports": [{"protocol": "UDP", "port": 53}, {"protocol": "TCP", "port": 53}, {"protocol": "TCP", "port": 443}]}]}}},
		"NetworkPolicy/allow-dns: lets out other than the cluster DNS (k8s-app: kube-dns in kube-system) on port 53 over UDP and TCP",
	)
}

test_dns_limiting_ingress_too if {
	namespace_denies({"allow-dns": {"spec": {"policyTypes": ["Ingress", "Egress"]}}}, "NetworkPolicy/allow-dns: limits more than Egress (its policyTypes are not Egress only)")
}

test_dns_for_some_pods if {
	namespace_denies({"allow-dns": {"spec": {"podSelector": {"matchLabels": {"app.kubernetes.io/name": "orders"}}}}}, "NetworkPolicy/allow-dns: selects not every pod (its podSelector is not {})")
}

test_no_dns if {
	"Namespace/shop: no NetworkPolicy allow-dns beside it" in deny with input as [{"path": "-", "contents": [shop_namespace, default_deny]}]
}

# No private key (committed.rego), in the shop's renders (package main) and in any other folder.

private_key := "-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEIA==\n-----END PRIVATE KEY-----\n"

keys_in(object) := [{"path": "-", "contents": object}]

test_a_private_key_in_a_config_map if {
	message := "ConfigMap/keys: a private key at data.key.pem"
	message in data.committed.deny with input as keys_in({"kind": "ConfigMap", "metadata": {"name": "keys"}, "data": {"key.pem": private_key}})
	message in deny with input as keys_in({"kind": "ConfigMap", "metadata": {"name": "keys"}, "data": {"key.pem": private_key}})
}

test_a_private_key_in_a_secret if {
	"Secret/keys: a private key at data.key.pem (decoded from base64)" in data.committed.deny with input as keys_in({"kind": "Secret", "metadata": {"name": "keys"}, "data": {"key.pem": base64.encode(private_key)}})
}

test_a_private_key_in_a_container_variable if {
	denies(
		container_with({"env": [{"name": "JWT_PRIVATE_KEY", "value": private_key}]}),
		"Deployment/orders: a private key at spec.template.spec.containers.0.env.0.value",
	)
}

test_a_public_key_is_no_private_key if {
	count(data.committed.deny) == 0 with input as keys_in({"kind": "ConfigMap", "metadata": {"name": "jwt-public-key"}, "data": {"JWT_PUBLIC_KEY": "-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEA\n-----END PUBLIC KEY-----\n"}})
}

# Production's NATS cluster and MongoDB replica set (prod.rego, package prod).

own_pods_of(name) := {"podSelector": {"matchLabels": {"app.kubernetes.io/name": name}}}

# A set of three: its StatefulSet (0), headless Service (1), disruption budget (2) and NetworkPolicy (3).
prod_set(name, port, number, c) := [
	{
		"apiVersion": "apps/v1",
		"kind": "StatefulSet",
		"metadata": {"name": name, "labels": {"app.kubernetes.io/name": name}},
		"spec": {
			"serviceName": sprintf("%s-headless", [name]),
			"replicas": 3,
			"podManagementPolicy": "Parallel",
			"template": {
				"metadata": {"labels": {"app.kubernetes.io/name": name}},
				"spec": {
					"affinity": {"podAntiAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [{
						"topologyKey": "kubernetes.io/hostname",
						"labelSelector": {"matchLabels": {"app.kubernetes.io/name": name}},
					}]}},
					"containers": [c],
				},
			},
			"volumeClaimTemplates": [{"metadata": {"name": "data"}}],
		},
	},
	{
		"apiVersion": "v1",
		"kind": "Service",
		"metadata": {"name": sprintf("%s-headless", [name])},
		"spec": {"clusterIP": "None", "ports": [{"name": port, "port": number, "targetPort": port}]},
	},
	{
		"apiVersion": "policy/v1",
		"kind": "PodDisruptionBudget",
		"metadata": {"name": name},
		"spec": {"maxUnavailable": 1, "selector": {"matchLabels": {"app.kubernetes.io/name": name}}},
	},
	{
		"apiVersion": "networking.k8s.io/v1",
		"kind": "NetworkPolicy",
		"metadata": {"name": name},
		"spec": {
			"podSelector": {"matchLabels": {"app.kubernetes.io/name": name}},
			"policyTypes": ["Ingress", "Egress"],
			"ingress": [{"from": [own_pods_of(name)], "ports": [{"protocol": "TCP", "port": port}]}],
			"egress": [{"to": [own_pods_of(name)], "ports": [{"protocol": "TCP", "port": port}]}],
		},
	},
]

prod_nats := {
	"name": "nats",
	"args": [
		"-js", "-sd", "/data", "--name", "$(POD_NAME)", "--cluster_name", "shop-nats", "--cluster", "nats://0.0.0.0:6222",
		"--routes", "nats://nats-0.nats-headless:6222,nats://nats-1.nats-headless:6222,nats://nats-2.nats-headless:6222",
	],
	"ports": [{"name": "client", "containerPort": 4222}, {"name": "cluster", "containerPort": 6222}],
	"volumeMounts": [{"name": "data", "mountPath": "/data"}],
}

mongodb_post_start := concat("\n", [
	`[ "${POD_NAME##*-}" = 0 ] || exit 0`,
	`mongosh --quiet --eval 'rs.initiate({`,
	`  _id: "rs0",`,
	`  members: [0, 1, 2].map((ordinal) => ({ _id: ordinal, host: "mongodb-" + ordinal + ".mongodb-headless:27017" })),`,
	`})'`,
])

prod_mongodb := {
	"name": "mongodb",
	"args": ["--replSet", "rs0", "--bind_ip_all"],
	"ports": [{"name": "mongodb", "containerPort": 27017}],
	"volumeMounts": [{"name": "data", "mountPath": "/data/db"}],
	"lifecycle": {"postStart": {"exec": {"command": ["/bin/bash", "-c", mongodb_post_start]}}},
}

# NATS's objects are 0 to 3, MongoDB's 4 to 7.
good_prod_sets := array.concat(prod_set("nats", "cluster", 6222, prod_nats), prod_set("mongodb", "mongodb", 27017, prod_mongodb))

nats_args := "/0/spec/template/spec/containers/0/args"

prod_denies(patch, message) if {
	message in data.prod.deny with input as [{"path": "-", "contents": json.patch(good_prod_sets, patch)}]
}

test_the_good_production_sets_pass if {
	count(data.prod.deny) == 0 with input as [{"path": "-", "contents": good_prod_sets}]
}

test_the_production_rules_leave_other_units_alone if {
	count(data.prod.deny) == 0 with input as unit_with({})
}

test_prod_nats_as_a_single_server if {
	prod_denies([{"op": "replace", "path": "/0/spec/replicas", "value": 1}], "StatefulSet/nats: 1 replicas, not the 3 members of a production set")
}

test_prod_members_only_preferring_other_nodes if {
	prod_denies(
		[{"op": "replace", "path": "/4/spec/template/spec/affinity/podAntiAffinity", "value": {"preferredDuringSchedulingIgnoredDuringExecution": [{
			"weight": 100,
			"podAffinityTerm": {"topologyKey": "kubernetes.io/hostname", "labelSelector": {"matchLabels": {"app.kubernetes.io/name": "mongodb"}}},
		}]}}],
		"StatefulSet/mongodb: no required pod anti-affinity on kubernetes.io/hostname selecting its own pods: two members may share a node",
	)
}

test_prod_members_started_one_by_one if {
	prod_denies([{"op": "remove", "path": "/0/spec/podManagementPolicy"}], "StatefulSet/nats: podManagementPolicy is not Parallel: the members must start together to find one another")
}

test_prod_members_without_a_budget if {
	prod_denies([{"op": "replace", "path": "/2/spec/selector/matchLabels/app.kubernetes.io~1name", "value": "mongodb"}], "StatefulSet/nats: no PodDisruptionBudget selects its members")
}

test_prod_members_drained_two_at_a_time if {
	prod_denies([{"op": "replace", "path": "/6/spec/maxUnavailable", "value": 2}], "PodDisruptionBudget/mongodb: maxUnavailable is not 1: a drain may take more than one member of StatefulSet/mongodb")
}

test_prod_data_on_no_volume_of_its_own if {
	prod_denies([{"op": "replace", "path": "/0/spec/volumeClaimTemplates/0/metadata/name", "value": "store"}], "StatefulSet/nats: /data is on no volumeClaimTemplate: each member keeps its data on a volume of its own")
}

test_prod_members_without_names if {
	prod_denies([{"op": "remove", "path": "/5/spec/clusterIP"}], "StatefulSet/mongodb: its serviceName mongodb-headless is no headless Service (clusterIP: None) beside it: the members have no names")
}

test_prod_members_without_their_policy if {
	prod_denies([{"op": "replace", "path": "/3/metadata/name", "value": "nats-routes"}], "StatefulSet/nats: no NetworkPolicy nats of its own")
}

test_prod_members_not_admitted if {
	prod_denies([{"op": "replace", "path": "/3/spec/ingress/0/ports/0/port", "value": "client"}], "NetworkPolicy/nats: admits no member of StatefulSet/nats on cluster")
}

test_prod_members_let_out_anywhere if {
	prod_denies(
		[{"op": "add", "path": "/7/spec/egress/-", "value": {"to": [{"ipBlock": {"cidr": "0.0.0.0/0"}}]}}],
		"NetworkPolicy/mongodb: lets its pods out to other than the members of StatefulSet/mongodb on mongodb",
	)
}

test_prod_nats_without_jetstream if {
	prod_denies([{"op": "remove", "path": concat("/", [nats_args, "0"])}], "StatefulSet/nats: nats-server runs without -js (JetStream, stored on its volume: -js -sd <dir>)")
}

test_prod_nats_without_its_cluster_port if {
	prod_denies([{"op": "remove", "path": "/0/spec/template/spec/containers/0/ports/1"}], "StatefulSet/nats container nats: declares no port cluster")
}

test_prod_nats_without_a_cluster_name if {
	prod_denies([{"op": "remove", "path": concat("/", [nats_args, "6"])}, {"op": "remove", "path": concat("/", [nats_args, "5"])}], "StatefulSet/nats: --cluster_name names no cluster")
}

test_prod_nats_listening_for_routes_elsewhere if {
	prod_denies(
		[{"op": "replace", "path": concat("/", [nats_args, "8"]), "value": "nats://0.0.0.0:4248"}],
		`StatefulSet/nats: --cluster is "nats://0.0.0.0:4248", not nats://0.0.0.0:6222 (the port cluster)`,
	)
}

test_prod_nats_routes_leaving_out_a_member if {
	prod_denies(
		[{"op": "replace", "path": concat("/", [nats_args, "10"]), "value": "nats://nats-0.nats-headless:6222,nats://nats-1.nats-headless:6222"}],
		"StatefulSet/nats: --routes name nats://nats-0.nats-headless:6222,nats://nats-1.nats-headless:6222, not every member: nats://nats-0.nats-headless:6222,nats://nats-1.nats-headless:6222,nats://nats-2.nats-headless:6222",
	)
}

test_prod_nats_servers_of_one_name if {
	prod_denies([{"op": "replace", "path": concat("/", [nats_args, "4"]), "value": "nats"}], `StatefulSet/nats: --name is "nats", not $(POD_NAME): each server is named after its pod`)
}

test_prod_nats_members_without_route_names if {
	prod_denies([{"op": "replace", "path": "/1/spec/ports/0/targetPort", "value": "client"}], "Service/nats-headless: no port targets cluster, which the routes name")
}

test_prod_mongod_without_a_replica_set if {
	mongod_args := "/4/spec/template/spec/containers/0/args"
	prod_denies([{"op": "remove", "path": concat("/", [mongod_args, "1"])}, {"op": "remove", "path": concat("/", [mongod_args, "0"])}], "StatefulSet/mongodb: mongod runs without --replSet <name>")
}

post_start_path := "/4/spec/template/spec/containers/0/lifecycle/postStart/exec/command/2"

test_prod_mongodb_initiated_by_every_member if {
	prod_denies(
		[{"op": "replace", "path": post_start_path, "value": replace(mongodb_post_start, `[ "${POD_NAME##*-}" = 0 ] || exit 0`, "")}],
		`StatefulSet/mongodb: postStart does not initiate the set on mongodb-0 only ([ "${POD_NAME##*-}" = 0 ] || exit 0)`,
	)
}

test_prod_mongodb_initiating_another_set if {
	prod_denies(
		[{"op": "replace", "path": "/4/spec/template/spec/containers/0/args/1", "value": "rs1"}],
		`StatefulSet/mongodb: postStart does not initiate the set mongod runs (_id: "rs1")`,
	)
}

test_prod_mongodb_initiated_with_one_member if {
	prod_denies(
		[{"op": "replace", "path": post_start_path, "value": replace(mongodb_post_start, "[0, 1, 2]", "[0]")}],
		`StatefulSet/mongodb: postStart does not initiate the set with every member: [0, 1, 2].map((ordinal) => ({ _id: ordinal, host: "mongodb-" + ordinal + ".mongodb-headless:27017" }))`,
	)
}

test_a_prod_nats_unit_without_its_stateful_set if {
	prod_denies([{"op": "replace", "path": "/0/kind", "value": "Deployment"}], "the unit nats has no StatefulSet nats")
}

# The shop's own parts by their component (network.rego, tokens.rego, workloads.rego): the good unit as a
# service or a front-end, admitting Kong on http, let out to MongoDB and NATS, verifying tokens with the
# public key; with its container and policy patched, and other objects beside it.

routed_container := object.union(good_container, {"env": [{"name": "JWT_PUBLIC_KEY", "valueFrom": public_key}]})

routed_policy := object.union(good_policy, {"spec": {
	"ingress": [{"from": [pods_named("kong")], "ports": [{"protocol": "TCP", "port": "http"}]}],
	"egress": [
		{"to": [pods_named("mongodb")], "ports": [{"protocol": "TCP", "port": "mongodb"}]},
		{"to": [pods_named("nats")], "ports": [{"protocol": "TCP", "port": "client"}]},
	],
}})

routed_unit(component, container_patch, policy_spec, added) := [{"path": "-", "contents": array.concat(
	unit_with({
		"Deployment": object.union(
			deployment_with(object.union(good_pod, {"containers": [object.union(routed_container, container_patch)]})),
			{"spec": {"template": {"metadata": {"labels": {"app.kubernetes.io/component": component}}}}},
		),
		"NetworkPolicy": object.union(routed_policy, {"spec": policy_spec}),
	})[0].contents,
	added,
)}]

service_denies(container_patch, policy_spec, message) if {
	message in deny with input as routed_unit("service", container_patch, policy_spec, [])
}

# Another unit's pods, as far as these rules read them: its name and component.
pods_of(name, component) := {
	"apiVersion": "apps/v1",
	"kind": "Deployment",
	"metadata": {"name": name, "labels": {"app.kubernetes.io/name": name}},
	"spec": {"template": {"metadata": {"labels": {"app.kubernetes.io/name": name, "app.kubernetes.io/component": component}}, "spec": {"containers": []}}},
}

admitting(peers, port) := {"ingress": [
	{"from": [pods_named("kong")], "ports": [{"protocol": "TCP", "port": "http"}]},
	{"from": [pods_named(name) | some name in peers], "ports": [{"protocol": "TCP", "port": port}]},
]}

test_the_good_service_and_front_end_pass if {
	count(deny) == 0 with input as routed_unit("service", {}, {}, [])
	count(deny) == 0 with input as routed_unit("frontend", {}, {}, [])
}

test_a_service_not_admitting_kong if {
	service_denies({}, {"ingress": [{"from": [pods_named("shell")], "ports": [{"protocol": "TCP", "port": "http"}]}]}, "Deployment/orders: no NetworkPolicy of its own admits Kong (app.kubernetes.io/name: kong) on its port http")
}

test_a_service_admitting_every_pod if {
	service_denies(
		{},
		{"ingress": [{"from": [pods_named("kong"), {"podSelector": {}}], "ports": [{"protocol": "TCP", "port": "http"}]}]},
		`NetworkPolicy/orders: admits Deployment/orders from {"podSelector": {}}, not from pods named by app.kubernetes.io/name`,
	)
}

test_a_service_admitting_another_namespace if {
	service_denies(
		{},
		{"ingress": [{"from": [object.union(pods_named("kong"), {"namespaceSelector": {}})], "ports": [{"protocol": "TCP", "port": "http"}]}]},
		`NetworkPolicy/orders: admits Deployment/orders from {"namespaceSelector": {}, "podSelector": {"matchLabels": {"app.kubernetes.io/name": "kong"}}}, not from pods named by app.kubernetes.io/name`,
	)
}

test_a_service_admitting_anyone if {
	service_denies({}, {"ingress": [{"ports": [{"protocol": "TCP", "port": "http"}]}]}, "NetworkPolicy/orders: an ingress rule without from admits anyone to Deployment/orders")
}

test_a_service_admitting_kong_on_every_port if {
	service_denies({}, {"ingress": [{"from": [pods_named("kong")]}]}, "NetworkPolicy/orders: an ingress rule without ports admits Deployment/orders on every port")
}

test_a_service_called_over_http_by_another_pod if {
	service_denies({}, admitting(["mf-catalog-render"], "http"), "NetworkPolicy/orders: admits Deployment/orders on http from mf-catalog-render: a service is called over HTTP by Kong only")
}

# A front-end's caller besides Kong is judged where the render holds its pods: a renderer may, another
# front-end may not; alone, the front-end's unit cannot tell.
frontend_admitting(peers, port, added) := routed_unit("frontend", {}, admitting(peers, port), added)

frontend_message := "NetworkPolicy/orders: admits Deployment/orders on http from mf-catalog: mf-catalog is no server-rendering pod (component renderer), the only caller of a front-end besides Kong"

test_a_front_end_called_by_another_front_end if {
	frontend_message in deny with input as frontend_admitting(["mf-catalog"], "http", [pods_of("mf-catalog", "frontend")])
}

test_a_front_end_called_by_a_renderer_passes if {
	not any_admission_refused(frontend_admitting(["shell-pages"], "http", [pods_of("shell-pages", "renderer")]))
}

test_a_front_end_alone_trusts_the_names_it_admits if {
	not any_admission_refused(frontend_admitting(["mf-catalog"], "http", []))
}

any_admission_refused(units) if {
	some message in deny with input as units
	contains(message, "the only caller")
}

# Another port (the data service's fault flags): the services only.
test_a_flags_port_for_a_front_end if {
	"NetworkPolicy/orders: admits Deployment/orders on flags-sync from shell: shell is no service (component service), the only caller of a port other than http" in deny with input as routed_unit("service", {}, admitting(["orders", "shell"], "flags-sync"), [pods_of("shell", "frontend")])
}

test_a_flags_port_for_the_services_passes if {
	not any_admission_refused(routed_unit("service", {}, admitting(["orders", "users"], "flags-sync"), [pods_of("users", "service")]))
}

test_a_service_not_let_out_to_nats if {
	service_denies(
		{},
		{"egress": [{"to": [pods_named("mongodb")], "ports": [{"protocol": "TCP", "port": "mongodb"}]}]},
		"Deployment/orders: no NetworkPolicy of its own lets it out to nats (app.kubernetes.io/name: nats) on port client",
	)
}

test_a_service_let_out_to_mongodb_on_another_port if {
	service_denies(
		{},
		{"egress": [{"to": [pods_named("mongodb")], "ports": [{"protocol": "TCP", "port": 27018}]}, {"to": [pods_named("nats")], "ports": [{"protocol": "TCP", "port": "client"}]}]},
		"Deployment/orders: no NetworkPolicy of its own lets it out to mongodb (app.kubernetes.io/name: mongodb) on port mongodb",
	)
}

public_key_message := "Deployment/orders container orders: JWT_PUBLIC_KEY does not come from the ConfigMap jwt-public-key (key JWT_PUBLIC_KEY): it cannot verify the users service's tokens"

test_a_service_without_the_public_key if {
	service_denies({"env": []}, {}, public_key_message)
}

test_a_service_with_a_public_key_of_its_own if {
	service_denies({"env": [{"name": "JWT_PUBLIC_KEY", "value": "-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEA\n-----END PUBLIC KEY-----\n"}]}, {}, public_key_message)
}

test_a_service_image_by_digest if {
	service_denies(
		{"image": "registry.example.com/shop/orders@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"},
		{},
		"Deployment/orders: image registry.example.com/shop/orders@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef is not a release of the shop's own (registry.example.com/shop/<unit>:x.y.z)",
	)
}

test_a_front_end_image_of_another_registry if {
	"Deployment/orders: image docker.io/library/orders:1.0.0 is not a release of the shop's own (registry.example.com/shop/<unit>:x.y.z)" in deny with input as routed_unit("frontend", {"image": "docker.io/library/orders:1.0.0"}, {}, [])
}

# The signing key (tokens.rego): the users service's only, whatever else runs.

test_another_unit_given_the_signing_key if {
	denies(
		container_with({"env": [{"name": "JWT_PRIVATE_KEY", "valueFrom": {"secretKeyRef": {"name": "users-secrets", "key": "JWT_PRIVATE_KEY"}}}]}),
		"Deployment/orders container orders: given JWT_PRIVATE_KEY: only the users service holds the signing key",
	)
	denies(
		container_with({"env": [{"name": "JWT_PRIVATE_KEY", "valueFrom": {"secretKeyRef": {"name": "users-secrets", "key": "JWT_PRIVATE_KEY"}}}]}),
		"Deployment/orders container orders: reads the Secret users-secrets (env JWT_PRIVATE_KEY): only the users service holds the signing key",
	)
}

test_another_unit_given_the_key_file if {
	denies(
		container_with({"env": [{"name": "JWT_PRIVATE_KEY_FILE", "value": "/keys/private.pem"}]}),
		"Deployment/orders container orders: given JWT_PRIVATE_KEY_FILE: only the users service holds the signing key",
	)
}

test_another_unit_reading_all_of_users_secrets if {
	denies(
		container_with({"envFrom": [{"secretRef": {"name": "users-secrets"}}]}),
		"Deployment/orders container orders: reads the Secret users-secrets (envFrom 0): only the users service holds the signing key",
	)
}

test_another_unit_mounting_users_secrets if {
	denies(
		pod_with({"volumes": [{"name": "tmp", "emptyDir": {"sizeLimit": "64Mi"}}, {"name": "keys", "secret": {"secretName": "users-secrets"}}]}),
		"Deployment/orders: mounts the Secret users-secrets (volume keys): only the users service holds the signing key",
	)
}
