//! Where the class can join: the address the presenter shows (and draws as a QR code).
//!
//! A teacher who opens the game at `localhost` or `127.0.0.1` is on an address no phone in
//! the class can reach. The server knows the addresses it listens on
//! ([`crate::protocol::ServerMsg::JoinAt`]); the page decides with [`join_at`] which to
//! show: its own address when the class can reach it, else the server's (the teacher picks
//! when there are several), else it says plainly that the server listens on this computer
//! only.

use std::net::IpAddr;

/// What the presenter shows under "Join at".
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum JoinAt {
    /// The page's own address (`host[:port]`): the class reaches the server as this page did.
    Page(String),
    /// The page is on this computer's own address; the server can be reached at these
    /// (`host:port`, the first shown until the teacher picks another).
    Server(Vec<String>),
    /// The page is on this computer's own address and the server listens nowhere else.
    LoopbackOnly,
    /// Not known yet: the server hasn't said where it listens.
    Unknown,
}

/// The host part of `host[:port]` (an IPv6 address in brackets without them).
fn host_part(authority: &str) -> &str {
    if let Some(rest) = authority.strip_prefix('[') {
        return rest.split(']').next().unwrap_or(rest);
    }
    authority
        .rsplit_once(':')
        .map_or(authority, |(h, port)| if port.chars().all(|c| c.is_ascii_digit()) { h } else { authority })
}

/// Whether `authority` (`host[:port]`) names this computer only: `localhost` (and its
/// subdomains), 127.0.0.0/8, `::1`, or the unspecified address.
pub fn is_loopback(authority: &str) -> bool {
    let host = host_part(authority).trim_end_matches('.').to_ascii_lowercase();
    if host == "localhost" || host.ends_with(".localhost") {
        return true;
    }
    host.parse::<IpAddr>().is_ok_and(|ip| ip.is_loopback() || ip.is_unspecified())
}

/// The address to show, for a page at `page` (`host[:port]`) when the server listens at
/// `server` (none: not told yet).
pub fn join_at(page: &str, server: Option<&[String]>) -> JoinAt {
    if !is_loopback(page) {
        return JoinAt::Page(page.to_string());
    }
    match server {
        None => JoinAt::Unknown,
        Some([]) => JoinAt::LoopbackOnly,
        Some(list) => JoinAt::Server(list.to_vec()),
    }
}

/// The addresses a server bound to `bound` can be reached at from other devices, as
/// `host:port`: every non-loopback address of `interfaces` when it listens on all of them
/// (`0.0.0.0` for IPv4 ones; `::` for all), its own address when bound to one, none when
/// bound to loopback. Link-local IPv6 addresses are left out (they need a zone a phone's
/// browser can't take). Private addresses come first, in the order given.
pub fn reachable(bound: std::net::SocketAddr, interfaces: &[IpAddr]) -> Vec<String> {
    let port = bound.port();
    let shown = |ip: &IpAddr| match ip {
        IpAddr::V4(v4) => format!("{v4}:{port}"),
        IpAddr::V6(v6) => format!("[{v6}]:{port}"),
    };
    let usable = |ip: &IpAddr| {
        !ip.is_loopback()
            && !ip.is_unspecified()
            && match ip {
                IpAddr::V4(v4) => !v4.is_link_local(),
                IpAddr::V6(v6) => (v6.segments()[0] & 0xffc0) != 0xfe80,
            }
    };
    let ip = bound.ip();
    if ip.is_loopback() {
        return vec![];
    }
    if !ip.is_unspecified() {
        return vec![shown(&ip)];
    }
    let mut out: Vec<&IpAddr> = interfaces.iter().filter(|i| usable(i) && (ip.is_ipv6() || i.is_ipv4())).collect();
    // IPv4 first (what people type), private networks first (a class's Wi-Fi).
    out.sort_by_key(|i| match i {
        IpAddr::V4(v4) => (0, !v4.is_private()),
        IpAddr::V6(_) => (1, true),
    });
    let mut seen = Vec::new();
    for i in out {
        let s = shown(i);
        if !seen.contains(&s) {
            seen.push(s);
        }
    }
    seen
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn this_computers_own_names_are_loopback() {
        for a in [
            "localhost",
            "localhost:8080",
            "LOCALHOST.",
            "app.localhost:80",
            "127.0.0.1:8080",
            "127.9.9.9",
            "[::1]:8080",
            "0.0.0.0:8080",
        ] {
            assert!(is_loopback(a), "{a}");
        }
        for a in ["192.168.1.20:8080", "score.school.example", "[fe80::1]:80", "10.0.0.2", "localhost.school.example"] {
            assert!(!is_loopback(a), "{a}");
        }
    }

    #[test]
    fn a_page_the_class_can_reach_shows_its_own_address() {
        assert_eq!(join_at("score.school.example", None), JoinAt::Page("score.school.example".into()));
        assert_eq!(join_at("192.168.1.20:8080", Some(&[])), JoinAt::Page("192.168.1.20:8080".into()));
    }

    #[test]
    fn a_page_on_localhost_shows_the_servers_addresses_or_says_it_listens_on_loopback() {
        let list = vec!["192.168.1.20:8080".to_string(), "10.8.0.3:8080".to_string()];
        assert_eq!(join_at("127.0.0.1:8080", Some(&list)), JoinAt::Server(list.clone()));
        assert_eq!(join_at("localhost:8080", Some(&[])), JoinAt::LoopbackOnly);
        assert_eq!(join_at("localhost:8080", None), JoinAt::Unknown);
    }

    #[test]
    fn a_server_on_every_address_is_reached_at_each_but_loopback_and_link_local() {
        let ifs: Vec<IpAddr> =
            ["127.0.0.1", "203.0.113.7", "192.168.1.20", "169.254.3.4", "::1", "fe80::1", "2001:db8::5"]
                .iter()
                .map(|s| s.parse().unwrap())
                .collect();
        let v4 = reachable("0.0.0.0:8080".parse().unwrap(), &ifs);
        assert_eq!(v4, ["192.168.1.20:8080", "203.0.113.7:8080"]);
        let all = reachable("[::]:8080".parse().unwrap(), &ifs);
        assert_eq!(all, ["192.168.1.20:8080", "203.0.113.7:8080", "[2001:db8::5]:8080"]);
        assert_eq!(reachable("192.168.1.20:9000".parse().unwrap(), &ifs), ["192.168.1.20:9000"]);
        assert!(reachable("127.0.0.1:8080".parse().unwrap(), &ifs).is_empty());
    }
}
