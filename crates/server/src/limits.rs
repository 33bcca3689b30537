//! What one server allows, and the bookkeeping that enforces it.
//!
//! Limits: frames over 4 KB close the socket; unreadable messages are answered, and the
//! fifth closes it; 20 messages (5 chat messages) per 10 s per connection; 10 joins by a
//! wrong code per minute per address; upgrades from another Origin are refused. Rooms: at
//! most [`Limits::rooms_per_address`] created per address in ten minutes, and
//! [`Limits::max_rooms`] in all; when the server is full, the room nobody has been in for
//! longest makes way, and a room with nobody in it is removed after
//! [`Limits::idle_ms`]. A seat whose member drops keeps its score for 10 minutes and
//! comes back with its token. A kept class is none of these: it never makes way, its seats
//! are held between lessons, a lesson ends after [`LESSON_ENDS_AFTER_MS`] with nobody in,
//! and the class is deleted only when unused for [`Limits::forget_ms`].
//!
//! The per-address maps (`Hub::wrong_codes`, `Hub::created`, `Hub::sockets`) are the
//! [`Hub`]'s fields; what counts them is here, in a second `impl Hub` block. The lock order
//! they follow is written at the top of [`crate::hub`].

use std::net::IpAddr;
use std::sync::Arc;

use score_room::protocol::Refusal;

use crate::hub::{lock, Hub};

/// Largest message, bytes.
pub const MAX_FRAME: usize = 4096;
/// A dropped member's seat is kept this long, ms.
pub const SEAT_KEPT_MS: u64 = 10 * 60 * 1000;
/// A dropped seat that never played (no move or claim) is kept this long, ms: long enough for
/// a tablet that locked during the teacher's introduction to come back to it.
pub const UNPLAYED_KEPT_MS: u64 = 3 * 60 * 1000;
/// A kept class's lesson ends after this long with nobody in it, ms.
pub const LESSON_ENDS_AFTER_MS: u64 = 60 * 60 * 1000;
/// Messages waiting for one member at most; past that the member is too slow and is cut.
pub const QUEUE: usize = 256;
/// Moves (with undos and clears) one member may send in 10 s.
pub const MOVES_PER_10_S: u32 = 120;
/// The window of the wrong-code limit, ms.
const WRONG_CODE_WINDOW_MS: u64 = 60_000;
/// The window of [`Limits::rooms_per_address`], ms.
const CREATE_WINDOW_MS: u64 = 10 * 60 * 1000;

/// What one server allows (`score-server`'s flags set them).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Limits {
    /// Most rooms held at once.
    pub max_rooms: usize,
    /// Most rooms one address may create in ten minutes.
    pub rooms_per_address: u32,
    /// A room with nobody connected is removed after this long, ms.
    pub idle_ms: u64,
    /// A kept class nobody has been in for this long is deleted, ms (`--forget-after DAYS`).
    pub forget_ms: u64,
    /// Behind a proxy: take each client's address from its `X-Real-IP` header.
    pub trust_proxy: bool,
    /// A socket that says nothing this long after it opens is closed, ms.
    pub first_message_ms: u64,
    /// Every socket is pinged this often, ms, and closed when two pings go unanswered (a
    /// phone that left the Wi-Fi no longer holds its room open).
    pub ping_ms: u64,
    /// Most sockets open at once from one address (loopback is not counted: a load test, or a
    /// proxy on this machine without `--trust-proxy`).
    pub sockets_per_address: u32,
    /// The other instances behind the same proxy, asked for a room this one doesn't hold
    /// (`--peers`, with `SCORE_PEER_KEY`): see [`crate::peers`].
    pub peers: Option<crate::peers::Peers>,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_rooms: 500,
            rooms_per_address: 5,
            idle_ms: 24 * 60 * 60 * 1000,
            forget_ms: 400 * 24 * 60 * 60 * 1000,
            trust_proxy: false,
            first_message_ms: score_room::protocol::FIRST_MESSAGE_MS,
            ping_ms: 30_000,
            sockets_per_address: 1_000,
            peers: None,
        }
    }
}

/// What every per-address limit counts an address as: an IPv4 address as itself (an IPv6
/// address that carries one, as that), loopback as itself, and any other IPv6 address as
/// its /64, the block one home or school network is given: one device changes its address
/// within it at will, so a /64 is one address for rooms created, wrong codes and sockets.
pub fn counted(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V4(_) => ip,
        IpAddr::V6(v6) if v6.is_loopback() => ip,
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => IpAddr::V6((u128::from(v6) & !u128::from(u64::MAX)).into()),
        },
    }
}

/// A simple window limit: `max` events per `window_ms`.
pub(crate) struct Limit {
    max: u32,
    window_ms: u64,
    start: u64,
    count: u32,
}

impl Limit {
    pub(crate) fn new(max: u32, window_ms: u64) -> Limit {
        Limit { max, window_ms, start: 0, count: 0 }
    }

    pub(crate) fn allow(&mut self, now: u64) -> bool {
        if now.saturating_sub(self.start) >= self.window_ms {
            (self.start, self.count) = (now, 0);
        }
        self.count += 1;
        self.count <= self.max
    }
}

/// One open socket counted against its address, given back when dropped.
pub(crate) struct SocketCount {
    hub: Arc<Hub>,
    from: IpAddr,
}

impl SocketCount {
    /// Counts a socket from `from`, or `None` when that address holds as many as it may.
    pub(crate) fn take(hub: &Arc<Hub>, from: IpAddr) -> Option<SocketCount> {
        if from.is_loopback() {
            return Some(SocketCount { hub: hub.clone(), from });
        }
        let mut open = lock(&hub.sockets);
        let n = open.entry(from).or_insert(0);
        if *n >= hub.limits.sockets_per_address {
            return None;
        }
        *n += 1;
        Some(SocketCount { hub: hub.clone(), from })
    }
}

impl Drop for SocketCount {
    fn drop(&mut self) {
        if self.from.is_loopback() {
            return;
        }
        let mut open = lock(&self.hub.sockets);
        if let Some(n) = open.get_mut(&self.from) {
            *n -= 1;
            if *n == 0 {
                open.remove(&self.from);
            }
        }
    }
}

/// The wrong-code and room-creation counts per address.
impl Hub {
    /// Maps keyed by address keep only what still counts (at each tick).
    pub(crate) fn forget_old_counts(&self, now: u64) {
        lock(&self.wrong_codes).retain(|_, (since, _)| now.saturating_sub(*since) <= WRONG_CODE_WINDOW_MS);
        lock(&self.created).retain(|_, list| {
            list.retain(|(at, _)| now.saturating_sub(*at) < CREATE_WINDOW_MS);
            !list.is_empty()
        });
    }

    /// Counts room `code` created from `from`, or says it is one too many. What is counted is
    /// what abuse looks like: rooms nobody has joined. A school's teachers behind one public
    /// address each create a room their class joins, and none of those counts.
    pub(crate) fn may_create(&self, from: IpAddr, code: &str, now: u64) -> Result<(), Refusal> {
        let mut created = lock(&self.created);
        let list = created.entry(from).or_default();
        list.retain(|(at, _)| now.saturating_sub(*at) < CREATE_WINDOW_MS);
        // A room gone unjoined (made way, ended) still counts: it was never a class's.
        let empty = list.iter().filter(|(_, c)| self.awake(c).is_none_or(|e| !lock(&e).joined)).count();
        let per = self.limits.rooms_per_address as usize;
        if empty >= per {
            return Err(Refusal::TooManyUnjoined { rooms: per as u32 });
        }
        // And a ceiling on all of them (a joiner from the same address makes a room joined).
        if list.len() >= per * 6 {
            return Err(Refusal::TooManyCreated { rooms: list.len() as u32 });
        }
        list.push((now, code.to_string()));
        Ok(())
    }

    /// Whether `from` is over the wrong-code limit now (without counting anything).
    pub(crate) fn too_many_wrong_codes(&self, from: IpAddr, now: u64) -> bool {
        lock(&self.wrong_codes)
            .get(&from)
            .is_some_and(|&(since, n)| now.saturating_sub(since) <= WRONG_CODE_WINDOW_MS && n >= 10)
    }

    /// Counts a wrong room code (or host token) from `from`: the refusal to send.
    pub(crate) fn wrong_code(&self, from: IpAddr, now: u64, refusal: Refusal) -> Refusal {
        let mut wrong = lock(&self.wrong_codes);
        let (since, n) = wrong.entry(from).or_insert((now, 0));
        if now.saturating_sub(*since) > WRONG_CODE_WINDOW_MS {
            (*since, *n) = (now, 0);
        }
        *n += 1;
        if *n > 10 {
            Refusal::WrongCodes
        } else {
            refusal
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // Pins a bug: each IPv6 address counted alone, so one device cycling the addresses of its
    // /64 had a fresh allowance of rooms, wrong codes and sockets with every one.
    #[test]
    fn an_ipv6_slash_64_counts_as_one_address() {
        let ip = |s: &str| s.parse::<IpAddr>().unwrap();
        let home = counted(ip("2001:db8:1:2:aaaa:bbbb:cccc:dddd"));
        assert_eq!(home, ip("2001:db8:1:2::"));
        assert_eq!(counted(ip("2001:db8:1:2::1")), home);
        assert_ne!(counted(ip("2001:db8:1:3::1")), home, "the next /64 is another network");
        assert_eq!(counted(ip("203.0.113.9")), ip("203.0.113.9"));
        assert_eq!(counted(ip("::ffff:203.0.113.9")), ip("203.0.113.9"));
        assert_eq!(counted(ip("::1")), ip("::1"));
        assert!(counted(ip("::1")).is_loopback());
    }
}
