"""Streaming a game over MQTT: topics and payloads, the publisher, brokers."""
