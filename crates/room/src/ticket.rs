//! The way back into a room that a page keeps across reloads: the room's code, the seat's
//! token (a member's) and the host token (a host's), kept apart, so that losing a seat never
//! loses the room's host token. The page stores it as it is (JSON in local storage).

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
                Some(ClientMsg::Join { version: VERSION, code, name: self.name.clone(), token: Some(token.clone()) })
            }
            (None, Some(host)) => Some(ClientMsg::Present { version: VERSION, code, host: host.clone() }),
            (None, None) => None,
        }
    }

    /// The seat was given up while this page was away: what is left (a host keeps their
    /// host token and comes back as a host screen), or nothing.
    pub fn seat_gone(&self) -> Option<Ticket> {
        self.host.as_ref().map(|_| Ticket { token: None, ..self.clone() })
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
}
