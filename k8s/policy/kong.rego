# Kong (k8s/base/kong) is the shop's way in: its proxy listens on 8000, and its Service sends port 80 there.
# Where no Ingress leads to that Service (the base, dev), the Service itself is a LoadBalancer; production's
# edge (k8s/overlays/prod/kong/edge) puts an Ingress in front of it instead. Its own NetworkPolicy admits
# anyone to the proxy port, and to nothing else.
package main

import rego.v1

kong_deployments contains deployment if {
	some deployment in objects
	deployment.kind == "Deployment"
	deployment.metadata.name == "kong"
}

kong_services contains service if {
	some service in objects
	service.kind == "Service"
	service.metadata.name == "kong"
}

deny contains "the unit kong has no Deployment kong" if {
	some item in objects
	unit_of(item) == "kong"
	count(kong_deployments) == 0
}

deny contains msg if {
	some deployment in kong_deployments
	count(kong_services) == 0
	msg := sprintf("%s: no Service kong in front of it", [id(deployment)])
}

deny contains msg if {
	some deployment in kong_deployments
	container := deployment.spec.template.spec.containers[0]
	not proxy_on_8000(container)
	msg := sprintf("%s container %s: its port proxy is not 8000, where Kong's proxy listens", [id(deployment), container.name])
}

proxy_on_8000(container) if {
	some port in container.ports
	port.name == "proxy"
	port.containerPort == 8000
}

deny contains msg if {
	some service in kong_services
	first := object.get(service.spec, ["ports", 0], {})
	[object.get(first, "port", null), object.get(first, "targetPort", null)] != [80, "proxy"]
	msg := sprintf("%s: its first port is not 80 to the port proxy", [id(service)])
}

deny contains msg if {
	some service in kong_services
	not behind_an_ingress(service)
	object.get(service.spec, "type", "ClusterIP") != "LoadBalancer"
	msg := sprintf("%s: type %s, not LoadBalancer: nothing outside the cluster reaches Kong's proxy", [id(service), object.get(service.spec, "type", "ClusterIP")])
}

behind_an_ingress(service) if {
	some ingress in objects
	ingress.kind == "Ingress"
	some rule in ingress.spec.rules
	some path in rule.http.paths
	path.backend.service.name == service.metadata.name
}

# Anyone may reach Kong's proxy port, and nothing else of it: its status port (probes) is the kubelet's,
# which policies do not govern, and Prometheus's scrape is admitted by k8s/monitoring's policy.
proxy_for_anyone := [{"ports": [{"protocol": "TCP", "port": "proxy"}]}]

deny contains msg if {
	some deployment in kong_deployments
	ingress := [own.rule | some own in unit_rules(deployment, "ingress")]
	ingress != proxy_for_anyone
	msg := sprintf("%s: its NetworkPolicy's ingress is %v, not anyone on the port proxy only", [id(deployment), ingress])
}
