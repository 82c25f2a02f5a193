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
