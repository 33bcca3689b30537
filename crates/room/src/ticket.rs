//! The way back into a room that a page keeps across reloads: the room's code, the seat's
//! token (a member's) and the host token (a host's), kept apart, so that losing a seat never
//! loses the room's host token. A browser keeps one per room ([`Tickets`]: a teacher with
//! two groups keeps both rooms' host tokens), stored as it is (JSON in local storage); each
//! tab knows whether it is a host's screen or the seat ([`Ticket::hello_for`]), so a
//! projector window in the same browser as the teacher's seat never takes that seat.

use serde::{Deserialize, Serialize};

use crate::protocol::{ClientMsg, VERSION};

/// A room to come back to: a member's seat, a host's screen, or both.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ticket {
    /// The room's code.
    pub code: String,
    /// The seat's token (none for a host screen that doesn't play).
    #[serde(default)]
    pub token: Option<String>,
    /// The host token, for the room's host.
    #[serde(default)]
    pub host: Option<String>,
    /// The name the seat was taken with: the join form offers it again if the seat is gone.
    #[serde(default)]
    pub name: String,
}

impl Ticket {
    /// The ticket after a Welcome to room `code`: the seat's token as the room gave it (none
    /// for a host screen), and the host token given, or else the one `kept` for that room.
    pub fn welcomed(
        kept: Option<&Ticket>,
        code: &str,
        token: Option<String>,
        host: Option<String>,
        name: String,
    ) -> Ticket {
        // What this Welcome doesn't say is kept: a host link opened in a second window
        // doesn't take the seat's token from the first, nor a seat the host token.
        let same = kept.filter(|t| t.code == code);
        let kept_token = same.and_then(|t| t.token.clone());
        let kept_host = same.and_then(|t| t.host.clone());
        let name = if token.is_none() && name.is_empty() { same.map(|t| t.name.clone()).unwrap_or(name) } else { name };
        Ticket { code: code.to_string(), token: token.or(kept_token), host: host.or(kept_host), name }
    }

    /// The hello that takes this place back: the seat if there is one, else the host's screen.
    pub fn hello(&self) -> Option<ClientMsg> {
        let code = self.code.clone();
        match (&self.token, &self.host) {
            (Some(token), _) => {
                let (name, token) = (self.name.clone(), Some(token.clone()));
                Some(ClientMsg::Join { version: VERSION, code, name, token, device: None })
            }
            (None, Some(host)) => Some(ClientMsg::Present { version: VERSION, code, host: host.clone() }),
            (None, None) => None,
        }
    }

    /// The hello that takes this tab's place back: a host screen (`screen`, for a tab that
    /// presents the room) comes back as one even when this browser also holds the room's
    /// seat (another tab's); otherwise as [`Ticket::hello`].
    pub fn hello_for(&self, screen: bool) -> Option<ClientMsg> {
        match (&self.host, screen) {
            (Some(host), true) => {
                Some(ClientMsg::Present { version: VERSION, code: self.code.clone(), host: host.clone() })
            }
            _ => self.hello(),
        }
    }

    /// The seat was given up while this page was away: what is left (a host keeps their
    /// host token and comes back as a host screen), or nothing.
    pub fn seat_gone(&self) -> Option<Ticket> {
        self.host.as_ref().map(|_| Ticket { token: None, ..self.clone() })
    }
}

/// The rooms this browser can come back to, the latest first.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tickets {
    /// One per room, the latest first, at most [`TICKETS_KEPT`].
    pub rooms: Vec<Ticket>,
}

/// Rooms a browser keeps its way back to.
pub const TICKETS_KEPT: usize = 8;

impl Tickets {
    /// The ticket for room `code`.
    pub fn get(&self, code: &str) -> Option<&Ticket> {
        self.rooms.iter().find(|t| t.code == code)
    }

    /// The room this browser was in last.
    pub fn latest(&self) -> Option<&Ticket> {
        self.rooms.first()
    }

    /// Keeps `t` as its room's ticket, now the latest.
    pub fn keep(&mut self, t: Ticket) {
        self.rooms.retain(|k| k.code != t.code);
        self.rooms.insert(0, t);
        self.rooms.truncate(TICKETS_KEPT);
    }

    /// Forgets room `code`'s ticket (the other rooms' stay).
    pub fn forget(&mut self, code: &str) {
        self.rooms.retain(|t| t.code != code);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ticket(token: Option<&str>, host: Option<&str>) -> Ticket {
        Ticket {
            code: "ABC234".into(),
            token: token.map(Into::into),
            host: host.map(Into::into),
            name: "Ms Ada".into(),
        }
    }

    // Pins a bug: a host who played too lost the room when their seat expired, because the
    // page forgot the whole ticket, host token and all.
    #[test]
    fn a_host_whose_seat_is_gone_comes_back_as_a_host_screen() {
        let t = ticket(Some("seat"), Some("host"));
        let left = t.seat_gone().expect("the host token is kept");
        assert_eq!(left.host.as_deref(), Some("host"));
        assert_eq!(
            left.hello(),
            Some(ClientMsg::Present { version: VERSION, code: "ABC234".into(), host: "host".into() })
        );
        assert_eq!(ticket(Some("seat"), None).seat_gone(), None, "a member without the host token keeps nothing");
    }

    #[test]
    fn a_seat_comes_back_by_its_token_before_the_host_screen() {
        let hello = ticket(Some("seat"), Some("host")).hello();
        assert!(matches!(hello, Some(ClientMsg::Join { token: Some(ref t), .. }) if t == "seat"));
        assert_eq!(ticket(None, None).hello(), None);
    }

    #[test]
    fn a_welcome_keeps_the_host_token_of_the_same_room_only() {
        let kept = ticket(None, Some("host"));
        let t = Ticket::welcomed(Some(&kept), "ABC234", Some("seat".into()), None, "Ms Ada".into());
        assert_eq!((t.token.as_deref(), t.host.as_deref()), (Some("seat"), Some("host")));
        let other = Ticket::welcomed(Some(&kept), "XYZ234", Some("seat".into()), None, "Ana".into());
        assert_eq!(other.host, None);
        // A host link opened in a second window keeps the seat this browser holds.
        let seated = ticket(Some("seat"), Some("host"));
        let t = Ticket::welcomed(Some(&seated), "ABC234", None, Some("host".into()), String::new());
        assert_eq!((t.token.as_deref(), t.name.as_str()), (Some("seat"), "Ms Ada"));
    }

    #[test]
    fn a_ticket_stored_by_the_earlier_page_still_reads() {
        let t: Ticket = serde_json::from_str(r#"{"code":"ABC234","token":"t","host":null,"name":"Ana"}"#).unwrap();
        assert_eq!(t, ticket(Some("t"), None).clone_with_name("Ana"));
    }

    impl Ticket {
        fn clone_with_name(&self, name: &str) -> Ticket {
            Ticket { name: name.into(), ..self.clone() }
        }
    }

    // Pins a bug: a projector window opened from the host link, in the browser where the
    // teacher plays, took the teacher's seat on its first reconnect or reload.
    #[test]
    fn a_host_screen_in_the_browser_of_the_hosts_seat_comes_back_as_a_screen() {
        let t = ticket(Some("seat"), Some("host"));
        assert!(matches!(t.hello_for(true), Some(ClientMsg::Present { ref host, .. }) if host == "host"));
        assert!(matches!(t.hello_for(false), Some(ClientMsg::Join { token: Some(ref s), .. }) if s == "seat"));
        // A screen without the host token can only be what the ticket allows.
        assert!(matches!(ticket(Some("seat"), None).hello_for(true), Some(ClientMsg::Join { .. })));
    }

    // Pins a bug: one ticket per browser, so a teacher who created a second room (a second
    // group, another tab) lost the first room's host token.
    #[test]
    fn a_browser_keeps_each_rooms_ticket() {
        let mut all = Tickets::default();
        all.keep(Ticket { code: "AAAAAA".into(), host: Some("a".into()), ..Ticket::default() });
        all.keep(Ticket { code: "BBBBBB".into(), host: Some("b".into()), ..Ticket::default() });
        assert_eq!(all.get("AAAAAA").and_then(|t| t.host.as_deref()), Some("a"));
        assert_eq!(all.latest().map(|t| t.code.as_str()), Some("BBBBBB"));
        // Back in the first: it is the latest again, and the second is kept.
        all.keep(Ticket {
            code: "AAAAAA".into(),
            host: Some("a".into()),
            token: Some("s".into()),
            ..Ticket::default()
        });
        assert_eq!((all.rooms.len(), all.latest().map(|t| t.code.as_str())), (2, Some("AAAAAA")));
        all.forget("AAAAAA");
        assert_eq!(all.get("BBBBBB").and_then(|t| t.host.as_deref()), Some("b"));
        for i in 0..20 {
            all.keep(Ticket { code: format!("C{i:05}"), ..Ticket::default() });
        }
        assert_eq!(all.rooms.len(), TICKETS_KEPT);
    }
}
