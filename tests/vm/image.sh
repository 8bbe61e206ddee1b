#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/vm/image.sh DIR - a small Debian 12 system for the VM check: its
# root as an ext4 disk (DIR/root.img), Debian's own kernel and initramfs
# beside it (DIR/vmlinuz, DIR/initrd.img). Built once; check-vm reuses
# it as long as DIR/root.img exists (delete DIR to rebuild).
#
# What the guest has: systemd (pid 1, cgroup v2 unless the kernel is told
# otherwise), logind and a user manager for the ordinary user `sandpit-vm`
# (lingering, so user@UID.service runs from boot, delegating its cgroup
# as Debian's systemd does), python3 with numpy (the prepared run's
# preload), and podman with a container image of the same userland
# (/var/lib/sandpit-container.tar, for `podman import`). At boot a unit mounts the 9p share "sandpit" at /mnt/sandpit
# and runs its inside.sh, which writes the results back into the share;
# the guest then powers off.
#
# The packages come from the mirror that this host's apt uses (or
# SANDPIT_VM_MIRROR); debootstrap needs root.
set -eu
dir=${1:?usage: image.sh DIR}
root=$dir/root

mirror=${SANDPIT_VM_MIRROR:-}
if [ -z "$mirror" ]; then
	# the first "debian" archive in apt's sources, either format
	mirror=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list \
		/etc/apt/sources.list.d/*.sources 2>/dev/null |
		grep -Eo '(https?|file)://[^ ]*/debian/?( |$)' | grep -v security | head -n 1 | tr -d ' ')
fi
[ -n "$mirror" ] || { echo "image.sh: no Debian mirror in apt's sources; set SANDPIT_VM_MIRROR" >&2; exit 1; }

rm -rf "$root" "$dir/root.img"
mkdir -p "$dir"
echo "image.sh: debootstrap bookworm from $mirror"
debootstrap --variant=minbase \
	--include=systemd,systemd-sysv,udev,dbus,dbus-user-session,libpam-systemd,kmod,procps,linux-image-amd64,python3,python3-numpy,podman,netavark,uidmap,slirp4netns,catatonit \
	bookworm "$root" "$mirror" > "$dir/debootstrap.log" 2>&1 ||
	{ tail -n 30 "$dir/debootstrap.log"; exit 1; }

echo sandpit-vm > "$root/etc/hostname"
printf '/dev/vda / ext4 rw,relatime 0 1\n' > "$root/etc/fstab"
chroot "$root" useradd --create-home --shell /bin/sh sandpit-vm
# rootless podman maps the user's subordinate ids, and stores images on
# the kernel's own overlayfs (6.1 allows it unprivileged; FUSE would be
# far slower under emulation)
echo sandpit-vm:100000:65536 > "$root/etc/subuid"
echo sandpit-vm:100000:65536 > "$root/etc/subgid"
mkdir -p "$root/home/sandpit-vm/.config/containers"
printf '[storage]\ndriver = "overlay"\n' > "$root/home/sandpit-vm/.config/containers/storage.conf"
chroot "$root" chown -R sandpit-vm:sandpit-vm /home/sandpit-vm/.config
# lingering: user@UID.service starts at boot, without a login
mkdir -p "$root/var/lib/systemd/linger"
touch "$root/var/lib/systemd/linger/sandpit-vm"
chroot "$root" passwd -d root > /dev/null
# the test runs from the share once the system is up, then powers off
cat > "$root/etc/systemd/system/sandpit-check.service" <<'UNIT'
[Unit]
Description=sandpit VM check (the share's inside.sh)
After=multi-user.target user@1000.service systemd-logind.service
Wants=user@1000.service

[Service]
Type=oneshot
StandardOutput=tty
StandardError=tty
TTYPath=/dev/ttyS0
ExecStart=/bin/sh -c 'mkdir -p /mnt/sandpit && mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144 sandpit /mnt/sandpit && sh /mnt/sandpit/inside.sh; echo SANDPIT-VM-END'
ExecStopPost=/bin/systemctl --no-block poweroff

[Install]
WantedBy=multi-user.target
UNIT
chroot "$root" systemctl enable sandpit-check.service > /dev/null 2>&1
chroot "$root" systemctl mask getty@tty1.service serial-getty@ttyS0.service \
	apt-daily.timer apt-daily-upgrade.timer e2scrub_reap.service > /dev/null 2>&1 || true
# what the image does not need
rm -rf "$root/usr/share/doc" "$root/usr/share/man" "$root/usr/share/locale" \
	"$root/var/cache/apt/archives"/*.deb "$root/var/lib/apt/lists"/*_Packages

# the container image for podman (no registry: `podman import` of this
# tarball): the same Debian userland, cut to what a run needs (python3,
# its standard library and the libraries they load, /etc), which keeps
# the import short under emulation
libs=$(chroot "$root" sh -c 'ldd /usr/bin/python3 /usr/lib/python3.*/lib-dynload/*.so' |
	sed -n 's|.*=> \(/[^ ]*\).*|\1|p; s|^[[:space:]]*\(/[^ ]*ld-linux[^ ]*\).*|\1|p' | sort -u)
list=$dir/container.list
: > "$list"
for lib in $libs; do
	# by their paths below /usr, not through the /lib symlink
	echo ".$(chroot "$root" readlink -f "$(dirname "$lib")")/$(basename "$lib")" >> "$list"
	echo ".$(chroot "$root" readlink -f "$lib")" >> "$list"
done
for p in ./etc ./tmp ./root ./bin ./sbin ./lib ./lib64 ./usr/bin/python3 ./usr/lib/python3; do
	echo "$p" >> "$list"
done
(cd "$root" && ls -d ./usr/bin/python3.* ./usr/lib/python3.[0-9]*) >> "$list"
sort -u -o "$list" "$list"
# the directories the libraries sit in first: an import needs every parent
tar -C "$root" --no-recursion -cf "$root/var/lib/sandpit-container.tar" \
	./usr ./usr/bin ./usr/lib ./usr/lib64 ./usr/lib/x86_64-linux-gnu
tar -C "$root" --exclude='*/test' --exclude='*/__pycache__' --exclude='*/dist-packages/numpy' \
	-rf "$root/var/lib/sandpit-container.tar" -T "$list"
echo "image.sh: container image $(du -h "$root/var/lib/sandpit-container.tar" | cut -f1)"

cp "$root"/boot/vmlinuz-* "$dir/vmlinuz"
cp "$root"/boot/initrd.img-* "$dir/initrd.img"
chmod 644 "$dir/vmlinuz" "$dir/initrd.img"
mkfs.ext4 -q -L sandpit-vm -d "$root" "$dir/root.img" 3G
rm -rf "$root"
echo "image.sh: $dir/root.img ($(du -h "$dir/root.img" | cut -f1) used)"
