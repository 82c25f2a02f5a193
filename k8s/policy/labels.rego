# Everything of the shop is in its namespace and says it is part of the shop, its pods too, and which
# team deploys it (the admission policy of k8s/deploy-identities lets only that team's pipeline change it).
package main

import rego.v1

namespace := "shop"

deny contains msg if {
	some item in objects
	item.kind == "Namespace"
	item.metadata.name != namespace
	msg := sprintf("%s: a namespace other than %s", [id(item), namespace])
}

deny contains msg if {
	some item in objects
	item.kind != "Namespace"
	object.get(item.metadata, "namespace", "") != namespace
	msg := sprintf("%s: not in the %s namespace", [id(item), namespace])
}

deny contains msg if {
	some item in objects
	object.get(item.metadata, ["labels", "app.kubernetes.io/part-of"], "") != "shop"
	msg := sprintf("%s: no label app.kubernetes.io/part-of=shop", [id(item)])
}

deny contains msg if {
	some workload in workloads
	object.get(workload.spec.template.metadata, ["labels", "app.kubernetes.io/part-of"], "") != "shop"
	msg := sprintf("%s: its pods have no label app.kubernetes.io/part-of=shop", [id(workload)])
}

deny contains msg if {
	some item in objects
	object.get(item.metadata, ["labels", "shop.example.com/team"], "") == ""
	msg := sprintf("%s: no label shop.example.com/team naming the team that deploys it", [id(item)])
}
