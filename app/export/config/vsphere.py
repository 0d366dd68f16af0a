"""vSphere: the VM specification per VM, as JSON (validated against its JSON Schema) and as a PowerCLI script.

What each VM gets comes from the design (vCPUs, memory, NUMA node, data drives, segments) and the
static VM policies in resources/deploy/vsphere.json (PVSCSI, VMXNET3, reservations, disk format).
Sizes the design does not state (OS disk, DATA/WAL disks) stay null and the script asks for them.
"""

from __future__ import annotations

from importlib import resources
from typing import Any

from app.export.config.bundle import ConfigBundle, comment, header, json_text
from app.export.config.design_values import fmt_value, setting_groups
from app.export.config.gp_layout import SegmentUnit
from app.export.config.naming import Naming
from app.export.config.static_data import cite, deploy_data
from models.sizing.result import SizingResult

SCHEMA_ID = "https://refarch.example/schemas/vsphere-vms-1.json"


def schema_text() -> str:
    return (resources.files("resources") / "deploy" / "vsphere_vms.schema.json").read_text(encoding="utf-8")


def _note(field: str, reason: str, source: str) -> dict[str, str]:
    return {"field": field, "reason": reason, "source": cite(source)}


def _controllers(data_disks: int, max_controllers: int) -> int:
    """PVSCSI controllers: one for the OS disk and up to three more for data disks."""
    return 1 + min(max(data_disks, 0), max_controllers - 1)


def cores_per_socket(vcpus: int, node_cores: int | None) -> int:
    """vCPUs per virtual socket: all of them in one socket when they fit a NUMA node of the host (or the node is
    unknown), else the most that divide them evenly and still fit a node, so each virtual socket lies in a node.

    >>> cores_per_socket(14, 8), cores_per_socket(6, 46), cores_per_socket(48, 16), cores_per_socket(13, 8)
    (7, 6, 16, 1)
    """
    if node_cores is None or vcpus <= node_cores:
        return vcpus
    return max(d for d in range(1, node_cores + 1) if vcpus % d == 0)


def _node_cores(result: SizingResult) -> int | None:
    """Cores of one NUMA node of the design's hosts (one server model per design), None when it has no layout."""
    return result.design.hosts[0].cores_per_numa_node if result.design.hosts else None


def _numa_note(vcpus: int, node_cores: int | None, per_socket: int, pol: dict[str, Any]) -> dict[str, str]:
    if per_socket == vcpus:
        return _note("cores_per_socket", pol["numa_reason"], pol["numa_source"])
    text = pol["numa_wide_reason"].format(node_cores=node_cores, sockets=vcpus // per_socket, per_socket=per_socket)
    return _note("cores_per_socket", text, pol["numa_wide_source"])


def _vm(name: str, host: str | None, role: str, numa: int | None, vcpus: int, memory_gib: float, kind: str,
        disks: list[dict[str, Any]], networks: list[str], node_cores: int | None = None) -> dict[str, Any]:
    v = deploy_data("vsphere")
    pol = v["vm"]
    res = v["memory_reservation"][kind]
    per_socket = cores_per_socket(vcpus, node_cores)
    data_disks = [d for d in disks if d["label"] != "os"]
    controllers = _controllers(len(data_disks), pol["max_scsi_controllers"])
    for i, d in enumerate(data_disks):
        d["controller"] = 1 + i % (controllers - 1) if controllers > 1 else 0
    os_disk = {"label": "os", "controller": 0, "backing": "vmdk", "format": pol["vmdk_format"], "size_gb": None,
               "mount": "/"}
    vm: dict[str, Any] = {
        "name": name,
        "host": host,
        "role": role,
        "numa_node": numa,
        "vcpus": vcpus,
        "cores_per_socket": per_socket,
        "memory_gib": memory_gib,
        "memory_reservation_gib": memory_gib if res["policy"] == "full" else 0,
        "scsi_controllers": [{"bus": b, "type": pol["scsi_controller_type"]} for b in range(controllers)],
        "disks": [os_disk, *disks],
        "networks": [{"name": n, "adapter": pol["nic_type"]} for n in networks],
        "advanced_settings": {"numa.nodeAffinity": str(numa)} if numa is not None else {},
    }
    notes = [
        _numa_note(vcpus, node_cores, per_socket, pol),
        _note("memory_reservation_gib", res["reason"], res["source"]),
        _note("scsi_controllers", pol["scsi_reason"] + " " + pol["scsi_spread_reason"],
              pol["scsi_source"] + "; " + pol["scsi_spread_source"]),
        _note("disks", pol["vmdk_reason"], pol["vmdk_source"]),
        _note("networks", pol["nic_reason"], pol["nic_source"]),
    ]
    if numa is not None:
        notes.append(_note("advanced_settings", "Pin the VM to its NUMA node so its memory stays local.",
                           pol["numa_source"]))
    vm["notes"] = notes
    return vm


def greenplum_vms(result: SizingResult, units: list[SegmentUnit]) -> list[dict[str, Any]]:
    v = deploy_data("vsphere")
    rdm = v["gp_data_disk_backing"]
    out = []
    for u in units:
        per_volume = max(u.drives // max(len(u.mounts), 1), 1)
        disks = []
        for i in range(u.drives):
            mount = u.mounts[i // per_volume] if i // per_volume < len(u.mounts) else u.mounts[-1]
            disks.append({"label": f"data{i + 1}", "backing": "rdm-physical", "format": None, "size_gb": None,
                          "mount": mount})
        networks = ["public", *[f"interconnect-{i}" for i in range(1, len(u.interfaces) + 1)]]
        vm = _vm(u.hostname, u.physical_name, "greenplum segment", u.numa_node, u.vcpus, u.memory_gib,
                 result.design.kind, disks, networks)
        vm["notes"].append(_note("disks", rdm["reason"], rdm["source"]))
        vm["notes"].append(_note("networks", "One public network and one interconnect network per host port.",
                                 "000_b2a3159111482e98.txt, Test Environment"))
        vm["greenplum"] = {"primaries": u.primaries, "mirrors": u.mirrors}
        out.append(vm)
    return out


def postgres_vms(result: SizingResult, names: dict[str, str], naming: Naming) -> list[dict[str, Any]]:
    sized = {vm.name: vm for vm in result.vms}
    fmt = deploy_data("vsphere")["vm"]["vmdk_format"]
    out = []
    for g in setting_groups(result, "postgresql"):
        spec = sized.get(g.target)
        if spec is None:
            continue
        # a VM's DATA and WAL disks: the design's per-database sizes on that VM, added up
        data_gb = round(sum(d.data_gb for d in spec.disks), 1) if spec.disks else None
        wal_gb = round(sum(d.wal_gb for d in spec.disks), 1) if spec.disks else None
        disks = [{"label": "pgdata", "backing": "vmdk", "format": fmt, "size_gb": data_gb, "mount": "/pgdata"},
                 {"label": "pgwal", "backing": "vmdk", "format": fmt, "size_gb": wal_gb, "mount": "/pgwal"}]
        host = naming.render("physical_host", host=spec.host)
        kind = result.design.kind + ("-huge-pages" if spec.memory_reservation_gib > 0 else "")
        vm = _vm(names[g.target], host, "postgresql", spec.numa_node, spec.vcpus, spec.memory_gib,
                 kind, disks, ["public"], _node_cores(result))
        vm["notes"].append(_note("disks", "DATA and WAL directories each on a dedicated virtual disk, apart from"
                                 " the operating system; sizes are the design's data and WAL space of the VM's"
                                 " databases.", "001_8432df66bbca52f5.txt, Performance Best Practices"))
        vm["postgresql"] = {"databases": list(spec.databases)}
        out.append(vm)
    return out


def sap_iq_roles(result: SizingResult) -> list[str]:
    """The role of each multiplex node in order, from the design's host layouts ("IQ coordinator" ...)."""
    roles: list[str] = []
    for h in result.design.hosts:
        roles += [h.role.removeprefix("IQ ").strip() or "node"] * h.count
    return roles


def sap_iq_vms(result: SizingResult, naming: Naming) -> list[dict[str, Any]]:
    d = result.design
    if d.vm is None:
        return []
    roles = sap_iq_roles(result)
    out = []
    for n in range(1, d.worker_hosts + 1):
        name = naming.render("iq_node", n=n)
        role = roles[n - 1] if n - 1 < len(roles) else "node"
        vm = _vm(name, naming.render("physical_host", host=n), f"sap iq {role}", None, d.vm.vcpus,
                 d.vm.memory_gib, d.kind, [], ["public", "dqp-interconnect"], _node_cores(result))
        vm["notes"].append(_note("networks", "A private network for DQP between the nodes, apart from the vSAN"
                                 " network.", "003_4970b14b1c56345f.txt, Test Environment"))
        out.append(vm)
    return out


def mirror_partners(n: int, i: int, primaries: int, mode: str | None, block: int | None) -> list[int]:
    """Host-file positions holding the mirrors of position `i` (0-based) among `n` segment hosts.

    group: the next host; spread: the next `primaries` hosts; block: the other hosts of its block.

    >>> mirror_partners(6, 5, 8, "group", None), mirror_partners(6, 1, 3, "spread", None)
    ([0], [2, 3, 4])
    >>> mirror_partners(8, 5, 8, "block", 4)
    [4, 6, 7]
    """
    if mode == "block" and block:
        start = i - i % block
        return [j for j in range(start, min(start + block, n)) if j != i]
    span = 1 if mode in (None, "group") else min(primaries, n - 1)
    return [(i + k) % n for k in range(1, span + 1)]


def anti_affinity(units: list[SegmentUnit], mirror_mode: str | None, block: int | None = None
                  ) -> list[dict[str, Any]]:
    """A VM-VM anti-affinity rule for each segment VM and the VMs holding its mirrors."""
    if not units or not units[0].mirrors or len(units) < 2:
        return []
    rules = []
    for i, u in enumerate(units):
        partners = [units[j].hostname for j in mirror_partners(len(units), i, u.primaries, mirror_mode, block)]
        rules.append({
            "name": f"mirror-apart-{u.hostname}",
            "type": "VMAntiAffinity",
            "vms": [u.hostname, *partners],
            "reason": f"{u.hostname}'s mirrors live on {', '.join(partners)} ({mirror_mode or 'group'} mirroring):"
                      " keep them on different physical hosts so one host failure never takes a primary and its"
                      " mirror.",
            "source": cite("vendor_docs: Greenplum Database Administrator Guide, Overview of Segment Mirroring;"
                           " VMware vSphere Resource Management, VM-VM affinity rules"),
        })
    return rules


def vsan_policies(result: SizingResult) -> list[dict[str, Any]]:
    groups = setting_groups(result, "vsan-policy")
    if groups:
        return [{"name": g.target, "rules": {s.name: s.value for s in g.settings},
                 "notes": [_note(s.name, s.reason, s.source) for s in g.settings]} for g in groups]
    study = deploy_data("sap_iq")["vsan_policy_study"]
    return [{"name": "sap-iq-dbspaces", "rules": {e["name"]: e["value"] for e in study},
             "notes": [_note(e["name"], e["reason"] + " (the study's values; the design sets no policy of its"
                             " own)", e["source"]) for e in study]}]


def spec(result: SizingResult, vms: list[dict[str, Any]], rules: list[dict[str, Any]],
         policies: list[dict[str, Any]]) -> dict[str, Any]:
    d = result.design
    hosts = sorted({vm["host"] for vm in vms if vm["host"]})
    return {
        "$schema": SCHEMA_ID,
        "format": "refarch-vsphere-vms",
        "version": 1,
        "scenario": result.scenario_name,
        "kind": d.kind,
        "server_id": d.server_id,
        "physical_hosts": hosts,
        "vms": vms,
        "drs_rules": rules,
        "storage_policies": policies,
    }


def _ps(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def _ps_value(value: object) -> str:
    """A PowerShell literal: numbers bare, booleans $true/$false, text quoted."""
    if isinstance(value, bool):
        return "$true" if value else "$false"
    return fmt_value(value) if isinstance(value, int | float) else _ps(str(value))


def powercli(result: SizingResult, doc: dict[str, Any]) -> str:
    lines = header("create-vms.ps1: the design's VMs for VMware PowerCLI (Connect-VIServer first)",
                   result.scenario_name)
    lines += [*comment("Sizes the design does not state (OS disk, DATA/WAL disks) and the host devices behind"
                       " raw device mappings are parameters: the script stops if one is missing.",
                       "VMware PowerCLI cmdlet reference: New-VM, New-HardDisk"),
              "param(",
              "    [Parameter(Mandatory)] [string]$Datastore,",
              "    [Parameter(Mandatory)] [int]$OsDiskGB,",
              "    [hashtable]$DiskGB = @{},      # 'vm/label' -> GB for VMDK data disks",
              "    [hashtable]$RdmDevice = @{}    # 'vm/label' -> /vmfs/devices/disks/naa.... for RDM disks",
              ")",
              *comment("Stop at the first error.", "PowerShell about_Preference_Variables"),
              "$ErrorActionPreference = 'Stop'"]
    for p in doc["storage_policies"]:
        rules = ", ".join(f"(New-SpbmRule -Capability (Get-SpbmCapability -Name 'VSAN.{k}') -Value {_ps_value(v)})"
                          for k, v in p["rules"].items())
        for n in p["notes"]:
            lines += comment(f"{n['field']}: {n['reason']}", n["source"])
        lines.append(f"New-SpbmStoragePolicy -Name {_ps(p['name'])} -AnyOfRuleSets (New-SpbmRuleSet {rules})")
    for vm in doc["vms"]:
        name = vm["name"]
        lines += ["", f"# --- VM {name} ({vm['role']}) ---"]
        for n in vm["notes"]:
            lines += comment(f"{n['field']}: {n['reason']}", n["source"])
        host = f" -VMHost {_ps(vm['host'])}" if vm["host"] else ""
        lines += [f"$vm = New-VM -Name {_ps(name)}{host} -Datastore $Datastore -NumCpu {vm['vcpus']}"
                  f" -CoresPerSocket {vm['cores_per_socket']} -MemoryGB {fmt_value(vm['memory_gib'])}"
                  " -DiskGB $OsDiskGB -DiskStorageFormat EagerZeroedThick"
                  f" -NetworkName {_ps(vm['networks'][0]['name'])}"
                  " -GuestId rhel8_64Guest"]
        lines.append("Get-ScsiController -VM $vm | Set-ScsiController -Type ParaVirtual | Out-Null")
        lines.append("Get-NetworkAdapter -VM $vm | Set-NetworkAdapter -Type Vmxnet3 -Confirm:$false | Out-Null")
        for net in vm["networks"][1:]:
            lines.append(f"New-NetworkAdapter -VM $vm -NetworkName {_ps(net['name'])} -Type Vmxnet3"
                         " -StartConnected | Out-Null")
        lines.append(f"Get-VMResourceConfiguration -VM $vm | Set-VMResourceConfiguration -MemReservationGB"
                     f" {fmt_value(vm['memory_reservation_gib'])} | Out-Null")
        for key, value in vm["advanced_settings"].items():
            lines.append(f"New-AdvancedSetting -Entity $vm -Name {_ps(key)} -Value {_ps(value)} -Confirm:$false"
                         " | Out-Null")
        for c in vm["scsi_controllers"][1:]:
            lines.append(f"# PVSCSI controller {c['bus']}: created with the first disk placed on it")
        made: set[int] = {0}
        for disk in vm["disks"]:
            if disk["label"] == "os":
                continue
            key = f"{name}/{disk['label']}"
            if disk["size_gb"] is not None and disk["backing"] == "vmdk":
                lines.append(f"# {disk['label']}: {fmt_value(disk['size_gb'])} GB from the design")
                new = f"New-HardDisk -VM $vm -CapacityGB {fmt_value(disk['size_gb'])} -StorageFormat EagerZeroedThick"
                guard = ""
            elif disk["backing"] == "rdm-physical":
                new = (f"New-HardDisk -VM $vm -DiskType RawPhysical -DeviceName $RdmDevice[{_ps(key)}]")
                guard = f"if (-not $RdmDevice[{_ps(key)}]) {{ throw 'RdmDevice[{key}] is missing' }}"
            else:
                new = (f"New-HardDisk -VM $vm -CapacityGB $DiskGB[{_ps(key)}] -StorageFormat EagerZeroedThick")
                guard = f"if (-not $DiskGB[{_ps(key)}]) {{ throw 'DiskGB[{key}] is missing' }}"
            lines += [f"# {disk['label']} -> {disk['mount']} on PVSCSI controller {disk['controller']}",
                      *([guard] if guard else [])]
            if disk["controller"] not in made:
                lines.append(f"{new} | New-ScsiController -Type ParaVirtual | Out-Null")
                made.add(disk["controller"])
            else:
                lines.append(f"{new} -Controller (Get-ScsiController -VM $vm)[{disk['controller']}] | Out-Null")
    if doc["drs_rules"]:
        lines.append("")
        lines += comment("Cluster that holds the hosts above.", "VMware PowerCLI cmdlet reference: New-DrsRule")
        lines.append("$cluster = Get-VMHost -Name " + _ps(doc["physical_hosts"][0]) + " | Get-Cluster")
    for r in doc["drs_rules"]:
        vms = ", ".join(_ps(v) for v in r["vms"])
        lines += [*comment(r["reason"], r["source"]),
                  f"New-DrsRule -Cluster $cluster -Name {_ps(r['name'])} -KeepTogether $false -VM (Get-VM {vms})"
                  " | Out-Null"]
    return "\n".join(lines)


def add_vsphere(bundle: ConfigBundle, result: SizingResult, vms: list[dict[str, Any]],
                rules: list[dict[str, Any]], policies: list[dict[str, Any]]) -> dict[str, Any]:
    doc = spec(result, vms, rules, policies)
    bundle.add("vsphere/vms.json", json_text(doc),
               "the VM specification (checked against the JSON Schema beside it)")
    bundle.add("vsphere/vms.schema.json", schema_text(), "JSON Schema of the VM specification")
    bundle.add("vsphere/create-vms.ps1", powercli(result, doc), "PowerCLI script creating the VMs and DRS rules")
    return doc
