//! Who is asking: the [`Actor`] of a command, a button press or a menu pick.

use super::Context;
use orrery_service::{Actor, Place};
use poise::serenity_prelude as serenity;

/// The name shown for a person: their server nickname, else their global
/// display name, else their username.
pub fn display_name(nick: Option<&str>, global_name: Option<&str>, username: &str) -> String {
    [nick, global_name]
        .into_iter()
        .flatten()
        .map(str::trim)
        .find(|n| !n.is_empty())
        .unwrap_or(username)
        .to_string()
}

/// An actor from the parts of an interaction. Without a guild it was a
/// direct message (or a group DM), which the service treats as private.
pub fn actor_from_parts(
    user: u64,
    nick: Option<&str>,
    global_name: Option<&str>,
    username: &str,
    guild: Option<u64>,
    channel: u64,
) -> Actor {
    let place = match guild {
        Some(g) => Place::Channel {
            channel,
            guild: Some(g),
        },
        None => Place::Dm,
    };
    Actor {
        user: orrery_engine::UserId(user),
        name: display_name(nick, global_name, username),
        place,
    }
}

fn actor_from_interaction(
    user: &serenity::User,
    member: Option<&serenity::Member>,
    guild: Option<serenity::GuildId>,
    channel: serenity::ChannelId,
) -> Actor {
    actor_from_parts(
        user.id.get(),
        member.and_then(|m| m.nick.as_deref()),
        user.global_name.as_deref(),
        &user.name,
        guild.map(|g| g.get()),
        channel.get(),
    )
}

/// The actor of a slash command or autocomplete.
pub fn actor_of(ctx: Context<'_>) -> Actor {
    match ctx {
        poise::Context::Application(a) => {
            let i = a.interaction;
            actor_from_interaction(&i.user, i.member.as_deref(), i.guild_id, i.channel_id)
        }
        poise::Context::Prefix(p) => actor_from_interaction(&p.msg.author, None, p.msg.guild_id, p.msg.channel_id),
    }
}

/// The actor of a button press or menu pick.
pub fn actor_of_component(i: &serenity::ComponentInteraction) -> Actor {
    actor_from_interaction(&i.user, i.member.as_ref(), i.guild_id, i.channel_id)
}

#[cfg(test)]
mod tests {
    use super::*;
    use orrery_engine::UserId;

    #[test]
    fn display_name_prefers_nick_then_global_name_then_username() {
        assert_eq!(display_name(Some("Captain"), Some("Alice A."), "alice"), "Captain");
        assert_eq!(display_name(None, Some("Alice A."), "alice"), "Alice A.");
        assert_eq!(display_name(Some("  "), None, "alice"), "alice");
        assert_eq!(display_name(None, None, "alice"), "alice");
    }

    #[test]
    fn actor_in_a_guild_channel_and_in_dms() {
        let a = actor_from_parts(42, Some("Cap"), None, "alice", Some(7), 99);
        assert_eq!(a.user, UserId(42));
        assert_eq!(a.name, "Cap");
        assert_eq!(
            a.place,
            Place::Channel {
                channel: 99,
                guild: Some(7)
            }
        );

        let d = actor_from_parts(42, None, Some("Alice"), "alice", None, 1234);
        assert_eq!(d.place, Place::Dm);
        assert_eq!(d.name, "Alice");
    }

    #[test]
    fn actor_from_serenity_models() {
        let mut user = serenity::User::default();
        user.id = serenity::UserId::new(5);
        user.name = "bob".into();
        user.global_name = Some("Bobby".into());
        let dm = actor_from_interaction(&user, None, None, serenity::ChannelId::new(8));
        assert_eq!((dm.user, dm.name.as_str(), dm.place), (UserId(5), "Bobby", Place::Dm));

        let mut member = serenity::Member::default();
        member.nick = Some("Admiral".into());
        let g = actor_from_interaction(
            &user,
            Some(&member),
            Some(serenity::GuildId::new(3)),
            serenity::ChannelId::new(8),
        );
        assert_eq!(g.name, "Admiral");
        assert_eq!(
            g.place,
            Place::Channel {
                channel: 8,
                guild: Some(3)
            }
        );
    }
}
