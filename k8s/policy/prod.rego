# What production adds (k8s/overlays/prod; docs/decisions/0016-production-data-tier.md): NATS runs as a
# JetStream cluster of three servers routing to every peer, MongoDB as a replica set of three that
# mongodb-0 initiates with every member; both start in parallel, one member per node, each on a volume of
# its own, behind a headless Service, talking among themselves on their own port only. The base and dev
# run one server of each, so these rules are a package of their own that conftest runs on a production
# render only, beside main:
#   kustomize build k8s/overlays/prod | conftest test --combine --policy k8s/policy --namespace main --namespace prod -
package prod

import data.main
import rego.v1

members := 3

# The data units: each a StatefulSet named after it, and the port its members talk to one another on.
member_ports := {"nats": "cluster", "mongodb": "mongodb"}

sets contains set if {
	some set in main.objects
	set.kind == "StatefulSet"
	set.metadata.name in object.keys(member_ports)
}

deny contains msg if {
	some unit in object.keys(member_ports)
	some item in main.objects
	main.unit_of(item) == unit
	not set_named(unit)
	msg := sprintf("the unit %s has no StatefulSet %s", [unit, unit])
}

set_named(name) if {
	some set in sets
	set.metadata.name == name
}

container(set) := set.spec.template.spec.containers[0]

replicas(set) := object.get(set.spec, "replicas", 1)

# Each member's stable name: <set>-<ordinal>.<headless Service>.
member_names(set) := [sprintf("%s-%d.%s", [set.metadata.name, ordinal, set.spec.serviceName]) |
	some ordinal in numbers.range(0, replicas(set) - 1)
]

# The word after a flag of the container's args, or "" when there is none.
arg_after(c, flag) := value if {
	args := object.get(c, "args", [])
	index := [i | some i, arg in args; arg == flag][0]
	value := args[index + 1]
} else := ""

port_of(c, name) := port.containerPort if {
	some port in object.get(c, "ports", [])
	port.name == name
}

own_pods(set) := {"podSelector": {"matchLabels": {"app.kubernetes.io/name": set.metadata.name}}}

# What both sets share.

deny contains msg if {
	some set in sets
	replicas(set) != members
	msg := sprintf("%s: %d replicas, not the %d members of a production set", [main.id(set), replicas(set), members])
}

deny contains msg if {
	some set in sets
	not one_per_node(set)
	msg := sprintf("%s: no required pod anti-affinity on kubernetes.io/hostname selecting its own pods: two members may share a node", [main.id(set)])
}

one_per_node(set) if {
	some term in object.get(set.spec.template.spec, ["affinity", "podAntiAffinity", "requiredDuringSchedulingIgnoredDuringExecution"], [])
	term.topologyKey == "kubernetes.io/hostname"
	main.selects(object.get(term, ["labelSelector", "matchLabels"], {}), set.spec.template.metadata.labels)
}

# The members find one another before any is ready: OrderedReady would wait for the first forever.
deny contains msg if {
	some set in sets
	object.get(set.spec, "podManagementPolicy", "OrderedReady") != "Parallel"
	msg := sprintf("%s: podManagementPolicy is not Parallel: the members must start together to find one another", [main.id(set)])
}

budgets(set) := [budget |
	some budget in main.objects
	budget.kind == "PodDisruptionBudget"
	main.selects(object.get(budget.spec, ["selector", "matchLabels"], {}), set.spec.template.metadata.labels)
]

deny contains msg if {
	some set in sets
	count(budgets(set)) == 0
	msg := sprintf("%s: no PodDisruptionBudget selects its members", [main.id(set)])
}

deny contains msg if {
	some set in sets
	some budget in budgets(set)
	object.get(budget.spec, "maxUnavailable", null) != 1
	msg := sprintf("%s: maxUnavailable is not 1: a drain may take more than one member of %s", [main.id(budget), main.id(set)])
}

data_path(set) := arg_after(container(set), "-sd") if set.metadata.name == "nats"

data_path(set) := "/data/db" if set.metadata.name == "mongodb"

deny contains msg if {
	some set in sets
	path := data_path(set)
	path != ""
	not on_a_claim(set, path)
	msg := sprintf("%s: %s is on no volumeClaimTemplate: each member keeps its data on a volume of its own", [main.id(set), path])
}

on_a_claim(set, path) if {
	some mount in object.get(container(set), "volumeMounts", [])
	mount.mountPath == path
	some claim in object.get(set.spec, "volumeClaimTemplates", [])
	claim.metadata.name == mount.name
}

headless(set) := service if {
	some service in main.objects
	service.kind == "Service"
	service.metadata.name == set.spec.serviceName
	service.spec.clusterIP == "None"
}

deny contains msg if {
	some set in sets
	not headless(set)
	msg := sprintf("%s: its serviceName %v is no headless Service (clusterIP: None) beside it: the members have no names", [main.id(set), object.get(set.spec, "serviceName", null)])
}

# The members talk to one another on their own port, both ways, and their pods reach nothing else.
member_policy(set) := policy if {
	some policy in main.objects
	policy.kind == "NetworkPolicy"
	policy.metadata.name == set.metadata.name
}

deny contains msg if {
	some set in sets
	not member_policy(set)
	msg := sprintf("%s: no NetworkPolicy %s of its own", [main.id(set), set.metadata.name])
}

deny contains msg if {
	some set in sets
	policy := member_policy(set)
	port := member_ports[set.metadata.name]
	not admits_members(policy, set, port)
	msg := sprintf("%s: admits no member of %s on %s", [main.id(policy), main.id(set), port])
}

admits_members(policy, set, port) if {
	some rule in object.get(policy.spec, "ingress", [])
	own_pods(set) in object.get(rule, "from", [])
	some rule_port in object.get(rule, "ports", [])
	rule_port.port == port
}

deny contains msg if {
	some set in sets
	policy := member_policy(set)
	port := member_ports[set.metadata.name]
	object.get(policy.spec, "egress", null) != [{"to": [own_pods(set)], "ports": [{"protocol": "TCP", "port": port}]}]
	msg := sprintf("%s: lets its pods out to other than the members of %s on %s", [main.id(policy), main.id(set), port])
}

# NATS: JetStream on the volume, a cluster listening on its port and routing to every member.

nats_sets contains set if {
	some set in sets
	set.metadata.name == "nats"
}

deny contains msg if {
	some set in nats_sets
	some flag in ["-js", "-sd"]
	not flag in object.get(container(set), "args", [])
	msg := sprintf("%s: nats-server runs without %s (JetStream, stored on its volume: -js -sd <dir>)", [main.id(set), flag])
}

deny contains msg if {
	some set in nats_sets
	not port_of(container(set), "cluster")
	msg := sprintf("%s container %s: declares no port cluster", [main.id(set), container(set).name])
}

deny contains msg if {
	some set in nats_sets
	not regex.match(`^\S+$`, arg_after(container(set), "--cluster_name"))
	msg := sprintf("%s: --cluster_name names no cluster", [main.id(set)])
}

deny contains msg if {
	some set in nats_sets
	listen := sprintf("nats://0.0.0.0:%d", [port_of(container(set), "cluster")])
	arg_after(container(set), "--cluster") != listen
	msg := sprintf("%s: --cluster is %q, not %s (the port cluster)", [main.id(set), arg_after(container(set), "--cluster"), listen])
}

# Each server names every server of the set as a route (its own it recognises and drops).
deny contains msg if {
	some set in nats_sets
	cluster := port_of(container(set), "cluster")
	expected := sort([sprintf("nats://%s:%d", [member, cluster]) | some member in member_names(set)])
	routes := sort(split(arg_after(container(set), "--routes"), ","))
	routes != expected
	msg := sprintf("%s: --routes name %s, not every member: %s", [main.id(set), concat(",", routes), concat(",", expected)])
}

deny contains msg if {
	some set in nats_sets
	arg_after(container(set), "--name") != "$(POD_NAME)"
	msg := sprintf("%s: --name is %q, not $(POD_NAME): each server is named after its pod", [main.id(set), arg_after(container(set), "--name")])
}

deny contains msg if {
	some set in nats_sets
	service := headless(set)
	not "cluster" in [object.get(port, "targetPort", null) | some port in service.spec.ports]
	msg := sprintf("%s: no port targets cluster, which the routes name", [main.id(service)])
}

# MongoDB: a named replica set, which mongodb-0 alone initiates, with every member.

mongodb_sets contains set if {
	some set in sets
	set.metadata.name == "mongodb"
}

post_start(set) := concat(" ", object.get(container(set), ["lifecycle", "postStart", "exec", "command"], []))

deny contains msg if {
	some set in mongodb_sets
	not regex.match(`^\S+$`, arg_after(container(set), "--replSet"))
	msg := sprintf("%s: mongod runs without --replSet <name>", [main.id(set)])
}

deny contains msg if {
	some set in mongodb_sets
	not regex.match(`"\$\{POD_NAME##\*-\}" = 0 \] \|\| exit 0`, post_start(set))
	msg := sprintf(`%s: postStart does not initiate the set on %s-0 only ([ "${POD_NAME##*-}" = 0 ] || exit 0)`, [main.id(set), set.metadata.name])
}

deny contains msg if {
	some set in mongodb_sets
	initiated := sprintf(`_id: "%s"`, [arg_after(container(set), "--replSet")])
	not contains(post_start(set), initiated)
	msg := sprintf("%s: postStart does not initiate the set mongod runs (%s)", [main.id(set), initiated])
}

deny contains msg if {
	some set in mongodb_sets
	ordinals := concat(", ", [sprintf("%d", [ordinal]) | some ordinal in numbers.range(0, replicas(set) - 1)])
	every_member := sprintf(
		`[%s].map((ordinal) => ({ _id: ordinal, host: "%s-" + ordinal + ".%s:%d" }))`,
		[ordinals, set.metadata.name, set.spec.serviceName, port_of(container(set), "mongodb")],
	)
	not contains(post_start(set), every_member)
	msg := sprintf("%s: postStart does not initiate the set with every member: %s", [main.id(set), every_member])
}
