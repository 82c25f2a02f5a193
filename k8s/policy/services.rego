# Each Service selects pods and targets a port they declare (by name or number).
package main

import rego.v1

selected_pods(service) := [workload |
	some workload in workloads
	selects(object.get(service.spec, "selector", {}), workload.spec.template.metadata.labels)
]

deny contains msg if {
	some service in objects
	service.kind == "Service"
	count(selected_pods(service)) == 0
	msg := sprintf("%s: selects no pods", [id(service)])
}

deny contains msg if {
	some service in objects
	service.kind == "Service"
	count(selected_pods(service)) > 0
	some port in service.spec.ports
	target := object.get(port, "targetPort", port.port)
	not declared(selected_pods(service), target)
	msg := sprintf("%s: port %v targets %v, which no container of its pods declares", [id(service), port.port, target])
}

declared(pods, target) if {
	some workload in pods
	some container in workload.spec.template.spec.containers
	some port in container.ports
	port.name == target
}

declared(pods, target) if {
	some workload in pods
	some container in workload.spec.template.spec.containers
	some port in container.ports
	port.containerPort == target
}
