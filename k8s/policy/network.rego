# Each workload's traffic is limited both ways by policies of its own unit: the namespace denies by
# default, so a unit deployed alone must say what it admits and what it reaches.
package main

import rego.v1

own_policy_types(workload) := {type |
	some policy in objects
	policy.kind == "NetworkPolicy"
	selects(object.get(policy.spec, ["podSelector", "matchLabels"], {}), workload.spec.template.metadata.labels)
	some type in policy.spec.policyTypes
}

deny contains msg if {
	some workload in workloads
	some direction in ["Ingress", "Egress"]
	not direction in own_policy_types(workload)
	msg := sprintf("%s: no NetworkPolicy of its own limits its %s", [id(workload), direction])
}

# The namespace unit (k8s/base/namespace), wherever its policies are rendered: default-deny stops every
# pod's traffic both ways, and allow-dns lets every pod out to the cluster DNS, and nowhere else.
deny contains msg if {
	some item in objects
	item.kind == "Namespace"
	item.metadata.name == namespace
	some name in ["default-deny", "allow-dns"]
	not namespace_policy(name)
	msg := sprintf("%s: no NetworkPolicy %s beside it", [id(item), name])
}

namespace_policy(name) if {
	some policy in objects
	policy.kind == "NetworkPolicy"
	policy.metadata.name == name
}

deny contains msg if {
	some policy in objects
	policy.kind == "NetworkPolicy"
	policy.metadata.name == "default-deny"
	some problem, found in {
		"selects not every pod (its podSelector is not {})": object.get(policy.spec, "podSelector", null) != {},
		"does not deny both ways (its policyTypes are not Ingress and Egress)": object.get(policy.spec, "policyTypes", null) != ["Ingress", "Egress"],
		"admits traffic: a default deny has no ingress rule": object.get(policy.spec, "ingress", []) != [],
		"lets traffic out: a default deny has no egress rule": object.get(policy.spec, "egress", []) != [],
	}
	found
	msg := sprintf("%s: %s", [id(policy), problem])
}

# CoreDNS and kube-dns both carry k8s-app: kube-dns.
cluster_dns_egress := [{
	"to": [{
		"namespaceSelector": {"matchLabels": {"kubernetes.io/metadata.name": "kube-system"}},
		"podSelector": {"matchLabels": {"k8s-app": "kube-dns"}},
	}],
	"ports": [{"protocol": "UDP", "port": 53}, {"protocol": "TCP", "port": 53}],
}]

deny contains msg if {
	some policy in objects
	policy.kind == "NetworkPolicy"
	policy.metadata.name == "allow-dns"
	some problem, found in {
		"selects not every pod (its podSelector is not {})": object.get(policy.spec, "podSelector", null) != {},
		"limits more than Egress (its policyTypes are not Egress only)": object.get(policy.spec, "policyTypes", null) != ["Egress"],
		"lets out other than the cluster DNS (k8s-app: kube-dns in kube-system) on port 53 over UDP and TCP": object.get(policy.spec, "egress", null) != cluster_dns_egress,
	}
	found
	msg := sprintf("%s: %s", [id(policy), problem])
}

# What a unit's own NetworkPolicies say of its workload's traffic: those selecting its pods by its name
# (not the monitoring's, which admits Prometheus to every pod of the shop).
unit_policies(workload) := [policy |
	some policy in objects
	policy.kind == "NetworkPolicy"
	object.get(policy.spec, ["podSelector", "matchLabels", "app.kubernetes.io/name"], null) == unit_of(workload)
	selects(policy.spec.podSelector.matchLabels, workload.spec.template.metadata.labels)
]

unit_rules(workload, direction) := [{"policy": policy, "rule": rule} |
	some policy in unit_policies(workload)
	some rule in object.get(policy.spec, direction, [])
]

# The parts of the shop by what they are (app.kubernetes.io/component on their pods).
component_of(workload) := object.get(workload.spec.template.metadata, ["labels", "app.kubernetes.io/component"], "")

of_component(components) := {workload |
	some workload in workloads
	component_of(workload) in components
}

# The pods of a unit, as a policy names them.
pods_named(name) := {"podSelector": {"matchLabels": {"app.kubernetes.io/name": name}}}

named_pods(peer) := name if {
	object.keys(peer) == {"podSelector"}
	object.keys(peer.podSelector) == {"matchLabels"}
	object.keys(peer.podSelector.matchLabels) == {"app.kubernetes.io/name"}
	name := peer.podSelector.matchLabels["app.kubernetes.io/name"]
}

# The components of a unit's pods; none when the render does not hold them (a unit rendered alone holds
# its own only).
components_of_unit(name) := {component_of(workload) |
	some workload in workloads
	unit_of(workload) == name
}

# The services and front-ends are reached over HTTP through Kong only: each admits Kong's pods on its
# port http, names every pod it admits (never anyone, another namespace or an address), and admits no
# other pod over HTTP, but for a front-end the server-rendering pods (the shell's page server reads
# remotes.json from the shell's nginx). A port other than http serves the services only (the data
# service's fault flags, which every service's flagd provider syncs). Who the named pods are is judged
# in a render that holds them: the whole base and each environment.
deny contains msg if {
	some workload in of_component({"service", "frontend"})
	not admits_kong_on_http(workload)
	msg := sprintf("%s: no NetworkPolicy of its own admits Kong (app.kubernetes.io/name: kong) on its port http", [id(workload)])
}

admits_kong_on_http(workload) if {
	some own in unit_rules(workload, "ingress")
	pods_named("kong") in object.get(own.rule, "from", [])
	some port in object.get(own.rule, "ports", [])
	port.port == "http"
}

deny contains msg if {
	some workload in of_component({"service", "frontend"})
	some own in unit_rules(workload, "ingress")
	count(object.get(own.rule, "from", [])) == 0
	msg := sprintf("%s: an ingress rule without from admits anyone to %s", [id(own.policy), id(workload)])
}

deny contains msg if {
	some workload in of_component({"service", "frontend"})
	some own in unit_rules(workload, "ingress")
	count(object.get(own.rule, "ports", [])) == 0
	msg := sprintf("%s: an ingress rule without ports admits %s on every port", [id(own.policy), id(workload)])
}

deny contains msg if {
	some workload in of_component({"service", "frontend"})
	some own in unit_rules(workload, "ingress")
	some peer in object.get(own.rule, "from", [])
	not named_pods(peer)
	msg := sprintf("%s: admits %s from %v, not from pods named by app.kubernetes.io/name", [id(own.policy), id(workload), peer])
}

deny contains msg if {
	some workload in of_component({"service", "frontend"})
	some own in unit_rules(workload, "ingress")
	some port in object.get(own.rule, "ports", [])
	some peer in object.get(own.rule, "from", [])
	name := named_pods(peer)
	name != "kong"
	problem := admission_problem(component_of(workload), port.port, name)
	msg := sprintf("%s: admits %s on %v from %s: %s", [id(own.policy), id(workload), port.port, name, problem])
}

admission_problem("service", "http", _) := "a service is called over HTTP by Kong only"

admission_problem("frontend", "http", name) := sprintf("%s is no server-rendering pod (component renderer), the only caller of a front-end besides Kong", [name]) if {
	not_of(name, "renderer")
}

admission_problem(_, port, name) := sprintf("%s is no service (component service), the only caller of a port other than http", [name]) if {
	port != "http"
	not_of(name, "service")
}

# Pods of the unit are in the render, and not of the component.
not_of(name, component) if {
	count(components_of_unit(name)) > 0
	components_of_unit(name) != {component}
}

# Each service reaches its database and the broker: its own policy lets it out to MongoDB's pods on their
# port mongodb and to NATS's on their port client.
service_peers := {"mongodb": "mongodb", "nats": "client"}

deny contains msg if {
	some workload in of_component({"service"})
	some name, port in service_peers
	not reaches(workload, name, port)
	msg := sprintf("%s: no NetworkPolicy of its own lets it out to %s (app.kubernetes.io/name: %s) on port %s", [id(workload), name, name, port])
}

reaches(workload, name, port) if {
	some own in unit_rules(workload, "egress")
	some peer in object.get(own.rule, "to", [])
	object.get(peer, ["podSelector", "matchLabels", "app.kubernetes.io/name"], null) == name
	some rule_port in object.get(own.rule, "ports", [])
	rule_port.port == port
}

# Only the users service leaves the cluster, to the mail relay its SMTP_URL names (which may be anywhere):
# any address on the SMTP ports, submission (587), implicit TLS (465) and relay (25), over TCP.
outside(rule) if {
	some peer in object.get(rule, "to", [])
	peer.ipBlock
}

deny contains msg if {
	some policy in objects
	policy.kind == "NetworkPolicy"
	object.get(policy.spec, ["podSelector", "matchLabels"], null) != {"app.kubernetes.io/name": "users"}
	some rule in object.get(policy.spec, "egress", [])
	outside(rule)
	msg := sprintf("%s: lets its pods out of the cluster (ipBlock): only the users service reaches outside, to its mail relay", [id(policy)])
}

smtp_rule := {
	"to": [{"ipBlock": {"cidr": "0.0.0.0/0"}}, {"ipBlock": {"cidr": "::/0"}}],
	"ports": {{"protocol": "TCP", "port": 25}, {"protocol": "TCP", "port": 465}, {"protocol": "TCP", "port": 587}},
}

deny contains msg if {
	some deployment in users_deployments
	rules := [{"to": own.rule.to, "ports": {port | some port in object.get(own.rule, "ports", [])}} |
		some own in unit_rules(deployment, "egress")
		outside(own.rule)
	]
	rules != [smtp_rule]
	msg := sprintf("%s: does not reach outside the cluster by one egress rule to any address (0.0.0.0/0 and ::/0) on the SMTP ports 25, 465 and 587 over TCP, where its mail relay listens", [id(deployment)])
}
