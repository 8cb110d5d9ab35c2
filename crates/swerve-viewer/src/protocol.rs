//! The messages a page may send: small JSON text messages, size-limited and validated.
//!
//! A message that is not one of these — binary, too long, not JSON, an unknown command, an
//! unknown field, an out-of-range number — closes that connection with a logged reason;
//! the server and the other connections go on.

use serde::Deserialize;
use swerve::physics::BroadPhaseKind;

/// The longest message a page may send (bytes). The longest valid command is under 100.
pub const MAX_CLIENT_MESSAGE_BYTES: usize = 1024;

/// Highest speed a page may ask for (steps per second); 0 means "as fast as possible".
pub const MAX_STEPS_PER_SECOND: f32 = 1000.0;

/// A command from the page. The commands without arguments are empty struct variants because
/// serde only refuses unknown fields of internally tagged variants that are structs.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(tag = "cmd", rename_all = "snake_case", deny_unknown_fields)]
pub enum ClientMessage {
    /// Start stepping.
    Play {},
    /// Stop stepping.
    Pause {},
    /// Pause and advance exactly one step.
    Step {},
    /// Back to the initial state.
    Reset {},
    /// Target stepping rate (steps per wall-clock second; 0: as fast as possible).
    Speed {
        /// In `0..=MAX_STEPS_PER_SECOND`.
        steps_per_second: f32,
    },
    /// Follow one agent in the inspector (by id).
    Inspect {
        /// The agent's id.
        agent: u32,
    },
    /// Stop following.
    Uninspect {},
    /// Whether this page wants the neighbour links in its frames.
    Links {
        /// On or off.
        on: bool,
    },
    /// Switch the balls' broad phase (one of `BroadPhaseKind::ALL`'s names).
    BroadPhase {
        /// E.g. `"uniform-grid"`.
        name: String,
    },
    /// Whether this page wants the broad phase's boxes in its frames.
    Structure {
        /// On or off.
        on: bool,
    },
}

/// Why a message was refused (the reason logged and sent in the close frame).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ProtocolError {
    /// Not JSON, or not one of the commands.
    #[error("malformed command: {0}")]
    Malformed(String),
    /// A number outside its range.
    #[error("{0}")]
    OutOfRange(String),
}

/// Parses and validates one text message.
pub fn parse(text: &str) -> Result<ClientMessage, ProtocolError> {
    if text.len() > MAX_CLIENT_MESSAGE_BYTES {
        return Err(ProtocolError::Malformed(format!("{} bytes, at most {MAX_CLIENT_MESSAGE_BYTES}", text.len())));
    }
    let message: ClientMessage = serde_json::from_str(text).map_err(|e| ProtocolError::Malformed(e.to_string()))?;
    match &message {
        ClientMessage::Speed { steps_per_second } if !(0.0..=MAX_STEPS_PER_SECOND).contains(steps_per_second) => {
            return Err(ProtocolError::OutOfRange(format!(
                "steps per second must be in 0..={MAX_STEPS_PER_SECOND}, got {steps_per_second}"
            )));
        }
        ClientMessage::BroadPhase { name } => {
            name.parse::<BroadPhaseKind>().map_err(|e| ProtocolError::OutOfRange(e.to_string()))?;
        }
        _ => {}
    }
    Ok(message)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn valid_commands_parse() {
        assert_eq!(parse(r#"{"cmd":"play"}"#), Ok(ClientMessage::Play {}));
        assert_eq!(parse(r#"{"cmd":"inspect","agent":12}"#), Ok(ClientMessage::Inspect { agent: 12 }));
        assert_eq!(
            parse(r#"{"cmd":"speed","steps_per_second":0}"#),
            Ok(ClientMessage::Speed { steps_per_second: 0.0 })
        );
        assert_eq!(parse(r#"{"cmd":"links","on":true}"#), Ok(ClientMessage::Links { on: true }));
        for kind in BroadPhaseKind::ALL {
            let text = format!(r#"{{"cmd":"broad_phase","name":"{kind}"}}"#);
            assert_eq!(parse(&text), Ok(ClientMessage::BroadPhase { name: kind.to_string() }));
        }
    }

    #[test]
    fn garbage_is_refused() {
        for bad in [
            "",
            "hello",
            "{}",
            r#"{"cmd":"shutdown"}"#,
            r#"{"cmd":"play","extra":1}"#,
            r#"{"cmd":"inspect","agent":-1}"#,
            r#"{"cmd":"inspect","agent":"0"}"#,
            r#"{"cmd":"speed","steps_per_second":-1}"#,
            r#"{"cmd":"speed","steps_per_second":1e9}"#,
            r#"{"cmd":"speed","steps_per_second":1e99}"#,
            r#"{"cmd":"broad_phase","name":"../../etc/passwd"}"#,
            r#"{"cmd":"broad_phase"}"#,
            r#"{"cmd":"structure","on":"yes"}"#,
        ] {
            assert!(parse(bad).is_err(), "{bad:?} was accepted");
        }
        assert!(parse(&format!(r#"{{"cmd":"play","x":"{}"}}"#, "a".repeat(2000))).is_err());
    }
}
